// ldb put_initial: writes a key's initial version (DB::PutInitial).
//
//   ldb --db=DIR put_initial <key> <value> [--key_hex] [--value_hex]
//
// The PutInitial contract applies: the key must have no visible value
// (docs/initial_put.md); with verify_initial_puts in the DB's options a
// violation fails the command.

#pragma once

#include <map>
#include <string>
#include <vector>

#include "rocksdb/utilities/ldb_cmd.h"

namespace ROCKSDB_NAMESPACE {

class PutInitialCommand : public LDBCommand {
 public:
  static std::string Name() { return "put_initial"; }

  PutInitialCommand(const std::vector<std::string>& params,
                    const std::map<std::string, std::string>& options,
                    const std::vector<std::string>& flags);

  void DoCommand() override;

  static void Help(std::string& ret);

 private:
  std::string key_;
  std::string value_;
};

}  // namespace ROCKSDB_NAMESPACE
