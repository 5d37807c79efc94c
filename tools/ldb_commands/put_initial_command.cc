#include "tools/ldb_commands/put_initial_command.h"

#include <cstdio>

#include "rocksdb/db.h"

namespace ROCKSDB_NAMESPACE {

PutInitialCommand::PutInitialCommand(
    const std::vector<std::string>& params,
    const std::map<std::string, std::string>& options,
    const std::vector<std::string>& flags)
    : LDBCommand(options, flags, /*is_read_only=*/false,
                 BuildCmdLineOptions({ARG_HEX, ARG_KEY_HEX, ARG_VALUE_HEX})) {
  if (params.size() != 2) {
    exec_state_ = LDBCommandExecuteResult::Failed(
        "<key> and <value> must be specified for the put_initial command");
    return;
  }
  key_ = is_key_hex_ ? HexToString(params[0]) : params[0];
  value_ = is_value_hex_ ? HexToString(params[1]) : params[1];
}

void PutInitialCommand::Help(std::string& ret) {
  ret.append("  ");
  ret.append(PutInitialCommand::Name());
  ret.append(" <key> <value> : write the key's initial version (PutInitial)\n");
}

void PutInitialCommand::DoCommand() {
  if (!db_) {
    assert(GetExecuteState().IsFailed());
    return;
  }
  Status s = db_->PutInitial(WriteOptions(), GetCfHandle(), key_, value_);
  if (s.ok()) {
    fprintf(stdout, "OK\n");
  } else {
    exec_state_ = LDBCommandExecuteResult::Failed(s.ToString());
  }
}

}  // namespace ROCKSDB_NAMESPACE
