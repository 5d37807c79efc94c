#include "table/craft/craft_table_writer.h"

#include <string>
#include <vector>

namespace ROCKSDB_NAMESPACE {

Status CraftTableWriter::Finish(const BlockWriter& write,
                                RangeFilterBlockHandle* meta_block) {
  std::vector<std::string> partitions;
  std::vector<CraftPartitionInfo> infos;
  std::string last_key;
  builder_->Finish(&partitions, &infos, &last_key);
  if (partitions.empty()) {
    return Status::NotFound("no keys");
  }
  for (size_t i = 0; i < partitions.size(); ++i) {
    RangeFilterBlockHandle where;
    Status s = write(partitions[i], &where);
    if (!s.ok()) {
      return s;
    }
    infos[i].offset = where.offset;
    infos[i].size = where.size;
  }
  std::string encoded;
  CraftMetadata::Encode(infos, last_key, &encoded);
  return write(encoded, meta_block);
}

}  // namespace ROCKSDB_NAMESPACE
