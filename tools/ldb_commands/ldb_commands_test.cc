// Our ldb commands: craft_query on a DB whose tables carry CRaFT filters,
// put_initial.

#include "db/db_test_util.h"
#include "rocksdb/convenience.h"
#include "rocksdb/range_filter_policy.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/debug.h"
#include "rocksdb/utilities/ldb_cmd.h"

namespace ROCKSDB_NAMESPACE {

class LdbCommandTest : public DBTestBase {
 public:
  LdbCommandTest() : DBTestBase("ldb_commands_test", /*env_do_fsync=*/false) {}

  std::string Run(const std::vector<std::string>& args, bool* ok) {
    std::vector<std::string> argv = {"ldb", "--db=" + dbname_};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(&a[0]);
    testing::internal::CaptureStdout();
    std::unique_ptr<LDBCommand> cmd(LDBCommand::InitFromCmdLineArgs(
        static_cast<int>(cargv.size()), cargv.data(), options_, LDBOptions(),
        nullptr));
    EXPECT_NE(cmd, nullptr);
    if (cmd) cmd->Run();
    std::string out = testing::internal::GetCapturedStdout();
    *ok = cmd && !cmd->GetExecuteState().IsFailed();
    return out;
  }

  Options options_;
};

TEST_F(LdbCommandTest, AnswersPerTable) {
  options_ = CurrentOptions();
  BlockBasedTableOptions table;
  ASSERT_OK(RangeFilterPolicy::CreateFromString(ConfigOptions(), "craft",
                                                &table.range_filter));
  options_.table_factory.reset(NewBlockBasedTableFactory(table));
  DestroyAndReopen(options_);
  for (int i = 0; i < 100; i++) {
    ASSERT_OK(Put("a" + std::to_string(1000 + i), "v"));
  }
  ASSERT_OK(Flush());
  for (int i = 0; i < 100; i++) {
    ASSERT_OK(Put("c" + std::to_string(1000 + i), "v"));
  }
  ASSERT_OK(Flush());
  Close();

  bool ok = false;
  std::string out = Run({"craft_query", "--from=b", "--to=b5"}, &ok);
  EXPECT_TRUE(ok) << out;
  EXPECT_NE(out.find("2 tables: 2 empty for the range"), std::string::npos)
      << out;
  out = Run({"craft_query", "--from=a1010", "--to=a1020"}, &ok);
  EXPECT_TRUE(ok) << out;
  EXPECT_NE(out.find("may exist"), std::string::npos) << out;
  EXPECT_NE(out.find("2 tables: 1 empty for the range"), std::string::npos)
      << out;
  Run({"craft_query", "--from=a"}, &ok);
  EXPECT_FALSE(ok);
}

TEST_F(LdbCommandTest, PutInitialWritesAnInitialPut) {
  options_ = CurrentOptions();
  options_.verify_initial_puts = true;
  DestroyAndReopen(options_);
  Close();
  bool ok = false;
  std::string out = Run({"put_initial", "k", "v"}, &ok);
  EXPECT_TRUE(ok) << out;
  // The contract, checked by the DB's verify_initial_puts.
  Run({"put_initial", "k", "again"}, &ok);
  EXPECT_FALSE(ok);
  Run({"put_initial", "k"}, &ok);
  EXPECT_FALSE(ok);
  Reopen(options_);
  EXPECT_EQ(Get("k"), "v");
  std::vector<KeyVersion> versions;
  ASSERT_OK(GetAllKeyVersions(db_, "k", "k\xff", 10, &versions));
  ASSERT_EQ(versions.size(), 1u);
  EXPECT_EQ(versions[0].type, static_cast<int>(kTypeValueInitial));
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ROCKSDB_NAMESPACE::port::InstallStackTraceHandler();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
