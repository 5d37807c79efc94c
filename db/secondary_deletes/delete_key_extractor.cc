// DeleteKeyExtractor::CreateFromString and the built-in extractors
// (rocksdb/delete_key_extractor.h).

#include "rocksdb/delete_key_extractor.h"

#include <cassert>
#include <mutex>
#include <unordered_map>

#include "rocksdb/convenience.h"
#include "rocksdb/utilities/object_registry.h"
#include "rocksdb/utilities/options_type.h"

namespace ROCKSDB_NAMESPACE {

namespace {

struct LengthOptions {
  uint32_t length = 0;
};

const std::unordered_map<std::string, OptionTypeInfo>& LengthTypeInfo() {
  static const std::unordered_map<std::string, OptionTypeInfo> info = {
      {"length",
       {offsetof(LengthOptions, length), OptionType::kUInt32T,
        OptionVerificationType::kNormal, OptionTypeFlags::kNone}},
  };
  return info;
}

// A fixed number of bytes taken from one end of the key or the value.
class FixedLengthExtractor : public DeleteKeyExtractor {
 public:
  explicit FixedLengthExtractor(size_t length) {
    options_.length = static_cast<uint32_t>(length);
    RegisterOptions("LengthOptions", &options_, &LengthTypeInfo());
  }

  Status PrepareOptions(const ConfigOptions& config_options) override {
    if (options_.length < 1 || options_.length > kMaxDeleteKeyLength) {
      return Status::InvalidArgument(
          std::string(Name()) + ": length must be 1 to " +
          std::to_string(kMaxDeleteKeyLength) + " bytes, not " +
          std::to_string(options_.length));
    }
    return DeleteKeyExtractor::PrepareOptions(config_options);
  }

 protected:
  size_t length() const { return options_.length; }

 private:
  LengthOptions options_;
};

class KeySuffixExtractor : public FixedLengthExtractor {
 public:
  using FixedLengthExtractor::FixedLengthExtractor;
  static const char* kClassName() { return "key_suffix"; }
  const char* Name() const override { return kClassName(); }

  bool Extract(const Slice& user_key, const Slice& /*value*/,
               Slice* delete_key) const override {
    if (user_key.size() < length()) {
      return false;
    }
    *delete_key = Slice(user_key.data() + user_key.size() - length(), length());
    return true;
  }
};

class ValuePrefixExtractor : public FixedLengthExtractor {
 public:
  using FixedLengthExtractor::FixedLengthExtractor;
  static const char* kClassName() { return "value_prefix"; }
  const char* Name() const override { return kClassName(); }

  bool Extract(const Slice& /*user_key*/, const Slice& value,
               Slice* delete_key) const override {
    if (value.size() < length()) {
      return false;
    }
    *delete_key = Slice(value.data(), length());
    return true;
  }
};

template <typename Extractor>
void AddBuiltin(ObjectLibrary& library) {
  library.AddFactory<const DeleteKeyExtractor>(
      Extractor::kClassName(),
      [](const std::string& /*uri*/,
         std::unique_ptr<const DeleteKeyExtractor>* guard,
         std::string* /*errmsg*/) {
        // The length comes with the knobs; 0 until then, which
        // PrepareOptions refuses if no knob sets it.
        guard->reset(new Extractor(0));
        return guard->get();
      });
}

}  // namespace

Status DeleteKeyExtractor::CreateFromString(
    const ConfigOptions& config_options, const std::string& value,
    std::shared_ptr<const DeleteKeyExtractor>* result) {
  static std::once_flag once;
  std::call_once(once, [] {
    ObjectLibrary& library = *ObjectLibrary::Default();
    AddBuiltin<KeySuffixExtractor>(library);
    AddBuiltin<ValuePrefixExtractor>(library);
  });
  std::string id;
  std::unordered_map<std::string, std::string> knobs;
  // From nothing: the value alone says what the extractor is, never merged
  // with what *result held.
  Status s =
      Customizable::GetOptionsMap(config_options, nullptr, value, &id, &knobs);
  if (s.ok() && id.empty() && knobs.empty()) {
    result->reset();
    return s;
  }
  std::shared_ptr<const DeleteKeyExtractor> extractor;
  if (s.ok()) {
    s = config_options.registry->NewSharedObject(id, &extractor);
  }
  // An unknown id must not turn secondary range deletes silently off, as
  // ignore_unsupported_options would have it.
  if (s.ok() && extractor == nullptr) {
    s = Status::NotSupported("no delete key extractor named", id);
  }
  if (s.ok()) {
    auto* mutable_extractor = const_cast<DeleteKeyExtractor*>(extractor.get());
    s = Customizable::ConfigureNewObject(config_options, mutable_extractor,
                                         knobs);
    // Nested parsing may leave PrepareOptions uncalled; the length check
    // must run.
    if (s.ok()) {
      s = mutable_extractor->PrepareOptions(config_options);
    }
  }
  if (!s.ok()) {
    return s.IsInvalidArgument() ? s
                                 : Status::InvalidArgument(
                                       "delete_key_extractor: " + s.ToString());
  }
  *result = std::move(extractor);
  return s;
}

std::shared_ptr<const DeleteKeyExtractor> NewKeySuffixDeleteKeyExtractor(
    size_t length) {
  assert(length >= 1 && length <= kMaxDeleteKeyLength);
  return std::make_shared<KeySuffixExtractor>(length);
}

std::shared_ptr<const DeleteKeyExtractor> NewValuePrefixDeleteKeyExtractor(
    size_t length) {
  assert(length >= 1 && length <= kMaxDeleteKeyLength);
  return std::make_shared<ValuePrefixExtractor>(length);
}

}  // namespace ROCKSDB_NAMESPACE
