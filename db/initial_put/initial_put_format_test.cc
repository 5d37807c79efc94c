// Golden bytes of the initial put's value types (docs/initial_put.md): the
// WAL records a write batch carries, and the internal key a memtable and a
// table store. Stock RocksDB reads neither (docs/compatibility.md); changing
// them would make Lodestone unable to read its own DBs.

#include <string>

#include "db/dbformat.h"
#include "db/write_batch_internal.h"
#include "rocksdb/write_batch.h"
#include "test_util/testharness.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

namespace {

std::string Hex(const Slice& bytes) { return bytes.ToString(/*hex=*/true); }

}  // namespace

TEST(InitialPutFormatTest, ValueTypeNumbers) {
  EXPECT_EQ(static_cast<int>(kTypeValueInitial), 0x1B);
  EXPECT_EQ(static_cast<int>(kTypeColumnFamilyValueInitial), 0x1C);
}

// A batch's body: sequence (fixed64), count (fixed32), then per record its
// tag, the column family id as a varint for tag 0x1C, and the key and value
// as length-prefixed slices.
TEST(InitialPutFormatTest, WalRecordBytes) {
  WriteBatch batch;
  ASSERT_OK(batch.PutInitial("key", "val"));
  ASSERT_OK(WriteBatchInternal::PutInitial(&batch, /*column_family_id=*/5, "k2",
                                           "v"));
  WriteBatchInternal::SetSequence(&batch, 0x0102);
  EXPECT_EQ(Hex(batch.Data()),
            "0201000000000000"  // sequence 0x102
            "02000000"          // two records
            "1B036B6579"        // 0x1B, "key"
            "0376616C"          // "val"
            "1C05"              // 0x1C, column family 5
            "026B32"            // "k2"
            "0176");            // "v"
}

// A memtable or table entry's internal key: the user key, then fixed64 of
// (sequence << 8 | type).
TEST(InitialPutFormatTest, InternalKeyBytes) {
  InternalKey key("key", 0x0A0B, kTypeValueInitial);
  EXPECT_EQ(Hex(key.Encode()),
            "6B6579"
            "1B0B0A0000000000");
  ParsedInternalKey parsed;
  ASSERT_OK(ParseInternalKey(key.Encode(), &parsed, /*log_err_key=*/false));
  EXPECT_EQ(parsed.type, kTypeValueInitial);
  EXPECT_EQ(parsed.sequence, 0x0A0Bu);
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
