// Delete key extractors (rocksdb/delete_key_extractor.h): the built-ins,
// their strings, and what is refused.

#include "rocksdb/delete_key_extractor.h"

#include "rocksdb/convenience.h"
#include "test_util/testharness.h"

namespace ROCKSDB_NAMESPACE {

namespace {

std::shared_ptr<const DeleteKeyExtractor> FromString(const std::string& value,
                                                     Status* s) {
  ConfigOptions config;
  std::shared_ptr<const DeleteKeyExtractor> extractor;
  *s = DeleteKeyExtractor::CreateFromString(config, value, &extractor);
  return extractor;
}

std::string DeleteKeyOf(const DeleteKeyExtractor& extractor,
                        const std::string& key, const std::string& value) {
  Slice d;
  return extractor.Extract(key, value, &d) ? d.ToString() : "<none>";
}

// The delete key of (key, value) under the extractor `spec` configures.
std::string DeleteKeyOf(const std::string& spec, const std::string& key,
                        const std::string& value) {
  Status s;
  auto extractor = FromString(spec, &s);
  EXPECT_OK(s) << spec;
  return extractor != nullptr ? DeleteKeyOf(*extractor, key, value)
                              : "<no extractor>";
}

}  // namespace

TEST(DeleteKeyExtractorTest, KeySuffix) {
  const std::string spec = "{id=key_suffix;length=4}";
  EXPECT_EQ(DeleteKeyOf(spec, "doc17/2026", "v"), "2026");
  EXPECT_EQ(DeleteKeyOf(spec, "2026", ""), "2026");
  EXPECT_EQ(DeleteKeyOf(spec, "026", "value"), "<none>");
}

TEST(DeleteKeyExtractorTest, ValuePrefix) {
  const std::string spec = "id=value_prefix;length=3";
  EXPECT_EQ(DeleteKeyOf(spec, "k", "t42:payload"), "t42");
  EXPECT_EQ(DeleteKeyOf(spec, "k", "t4"), "<none>");
}

TEST(DeleteKeyExtractorTest, NoneFromEmptyOrNullptr) {
  for (const char* value : {"", "nullptr"}) {
    ConfigOptions config;
    std::shared_ptr<const DeleteKeyExtractor> extractor =
        NewKeySuffixDeleteKeyExtractor(8);
    ASSERT_OK(DeleteKeyExtractor::CreateFromString(config, value, &extractor))
        << value;
    EXPECT_EQ(extractor, nullptr) << value;
  }
}

TEST(DeleteKeyExtractorTest, RefusesWithInvalidArgument) {
  for (const char* value :
       {"key_suffix", "{id=key_suffix;length=0}", "{id=key_suffix;length=1025}",
        "{id=key_suffix;length=-1}", "{id=key_suffix;length=8;width=2}",
        "{id=no_such_extractor;length=8}", "no_such_extractor"}) {
    ConfigOptions config;
    std::shared_ptr<const DeleteKeyExtractor> extractor =
        NewValuePrefixDeleteKeyExtractor(2);
    const DeleteKeyExtractor* before = extractor.get();
    Status s = DeleteKeyExtractor::CreateFromString(config, value, &extractor);
    EXPECT_TRUE(s.IsInvalidArgument()) << value << ": " << s.ToString();
    EXPECT_EQ(extractor.get(), before) << value << ": left unchanged";
  }
}

TEST(DeleteKeyExtractorTest, StringRoundTrip) {
  ConfigOptions config;
  for (auto original : {NewKeySuffixDeleteKeyExtractor(8),
                        NewValuePrefixDeleteKeyExtractor(1024)}) {
    const std::string as_string = original->ToString(config);
    Status s;
    auto again = FromString(as_string, &s);
    ASSERT_OK(s) << as_string;
    ASSERT_NE(again, nullptr);
    EXPECT_STREQ(again->Name(), original->Name());
    EXPECT_EQ(again->ToString(config), as_string);
    const std::string long_key(2000, 'k'), long_value(2000, 'v');
    EXPECT_EQ(DeleteKeyOf(*again, long_key, long_value),
              DeleteKeyOf(*original, long_key, long_value));
  }
}

}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ROCKSDB_NAMESPACE::port::InstallStackTraceHandler();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
