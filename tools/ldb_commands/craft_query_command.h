// ldb craft_query: asks every live table's CRaFT range filter about a range.
//
//   ldb --db=DIR craft_query --from=K1 --to=K2 [--key_hex]
//
// One line per table: its level and number, whether [K1, K2) may hold a key
// (or "no filter"), and the keys its metadata counts in the range; then the
// column family's total (EstimateKeysInRange). Reads only the filters.

#pragma once

#include <string>
#include <vector>

#include "rocksdb/utilities/ldb_cmd.h"

namespace ROCKSDB_NAMESPACE {

class CraftQueryCommand : public LDBCommand {
 public:
  static std::string Name() { return "craft_query"; }

  CraftQueryCommand(const std::vector<std::string>& params,
                    const std::map<std::string, std::string>& options,
                    const std::vector<std::string>& flags);

  void DoCommand() override;

  static void Help(std::string& ret);

 private:
  std::string from_;
  std::string to_;
};

}  // namespace ROCKSDB_NAMESPACE
