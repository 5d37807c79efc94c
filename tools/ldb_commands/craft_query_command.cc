#include "tools/ldb_commands/craft_query_command.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "rocksdb/craft_filter.h"
#include "rocksdb/metadata.h"
#include "table/craft/craft_file_inspection.h"

namespace ROCKSDB_NAMESPACE {

CraftQueryCommand::CraftQueryCommand(
    const std::vector<std::string>& /*params*/,
    const std::map<std::string, std::string>& options,
    const std::vector<std::string>& flags)
    : LDBCommand(
          options, flags, /*is_read_only=*/true,
          BuildCmdLineOptions({ARG_FROM, ARG_TO, ARG_HEX, ARG_KEY_HEX})) {
  auto from = options.find(ARG_FROM);
  auto to = options.find(ARG_TO);
  if (from == options.end() || to == options.end()) {
    exec_state_ = LDBCommandExecuteResult::Failed(
        "craft_query needs --" + ARG_FROM + " and --" + ARG_TO);
    return;
  }
  from_ = is_key_hex_ ? HexToString(from->second) : from->second;
  to_ = is_key_hex_ ? HexToString(to->second) : to->second;
}

void CraftQueryCommand::Help(std::string& ret) {
  ret.append("  ");
  ret.append(CraftQueryCommand::Name());
  ret.append(" --" + ARG_FROM + "=<key> --" + ARG_TO + "=<key>");
  ret.append(" : ask each table's CRaFT filter about [from, to)\n");
}

void CraftQueryCommand::DoCommand() {
  if (!db_) {
    assert(GetExecuteState().IsFailed());
    return;
  }
  ColumnFamilyHandle* cf = GetCfHandle();
  std::vector<LiveFileMetaData> files;
  db_->GetLiveFilesMetaData(&files);
  std::sort(files.begin(), files.end(),
            [](const LiveFileMetaData& a, const LiveFileMetaData& b) {
              return a.level != b.level ? a.level < b.level
                                        : a.file_number < b.file_number;
            });
  const Options options = db_->GetOptions(cf);
  size_t tables = 0, empty = 0, without = 0;
  for (const auto& f : files) {
    if (f.column_family_name != cf->GetName()) continue;
    ++tables;
    const std::string path = f.directory + "/" + f.relative_filename;
    CraftFileFilter filter;
    Status s = ReadCraftFilterFromFile(path, options, &filter);
    if (s.IsNotFound()) {
      ++without;
      fprintf(stdout, "L%d %06" PRIu64 " no filter\n", f.level, f.file_number);
      continue;
    }
    if (!s.ok()) {
      fprintf(stdout, "L%d %06" PRIu64 " filter unreadable: %s\n", f.level,
              f.file_number, s.ToString().c_str());
      continue;
    }
    CraftFilterReader reader(filter.metadata);
    Status load;
    const CraftPartitionLoader loader =
        [&filter](size_t index, const CraftPartition** partition, Cleanable*) {
          if (index >= filter.partitions.size()) {
            return Status::Corruption("no such CRaFT partition");
          }
          *partition = &filter.partitions[index];
          return Status::OK();
        };
    const bool may = reader.RangeMayExist(from_, to_, loader, &load);
    empty += may ? 0 : 1;
    // The metadata's count only means something where the trie says maybe.
    fprintf(stdout, "L%d %06" PRIu64 " %s, ~%" PRIu64 " keys%s\n", f.level,
            f.file_number, may ? "may exist" : "empty",
            may ? reader.EstimateKeys(from_, to_, &loader) : 0,
            load.ok() ? "" : (" (" + load.ToString() + ")").c_str());
  }
  uint64_t total = 0;
  Status s = EstimateKeysInRange(db_, cf, from_, to_, &total);
  if (!s.ok()) {
    exec_state_ = LDBCommandExecuteResult::Failed(s.ToString());
    return;
  }
  fprintf(stdout,
          "%zu tables: %zu empty for the range, %zu without a filter; "
          "~%" PRIu64 " keys in the range\n",
          tables, empty, without, total);
}

}  // namespace ROCKSDB_NAMESPACE
