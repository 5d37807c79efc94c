// RangeFilterPolicy::CreateFromString and the built-in policies.

#include "rocksdb/range_filter_policy.h"

#include <mutex>

#include "rocksdb/convenience.h"
#include "rocksdb/utilities/customizable_util.h"
#include "rocksdb/utilities/object_registry.h"
#include "table/craft/craft_range_filter_policy.h"

namespace ROCKSDB_NAMESPACE {

namespace {

RangeFilterPolicy* NewDefaultCraftPolicy(
    const std::string& /*uri*/, std::unique_ptr<RangeFilterPolicy>* guard,
    std::string* /*errmsg*/) {
  guard->reset(new CraftRangeFilterPolicy(CraftRangeFilterOptions()));
  return guard->get();
}

void RegisterBuiltinRangeFilterPolicies(ObjectLibrary& library) {
  library.AddFactory<RangeFilterPolicy>(CraftRangeFilterPolicy::kClassName(),
                                        NewDefaultCraftPolicy);
}

}  // namespace

Status RangeFilterPolicy::CreateFromString(
    const ConfigOptions& config_options, const std::string& value,
    std::shared_ptr<RangeFilterPolicy>* result) {
  static std::once_flag once;
  std::call_once(once, [] {
    RegisterBuiltinRangeFilterPolicies(*ObjectLibrary::Default());
  });
  // From null: the value alone says what the policy is, never merged with
  // what *result held.
  std::shared_ptr<RangeFilterPolicy> policy;
  Status s =
      LoadSharedObject<RangeFilterPolicy>(config_options, value, &policy);
  // An unknown id loads as null under ignore_unsupported_options (on by
  // default), which would turn the filter silently off: refuse it. Every
  // failure is InvalidArgument, which option parsing reports as it is (a
  // NotFound from a nested knob would read as "no option range_filter").
  if (s.ok() && policy == nullptr && !value.empty() && value != "nullptr") {
    s = Status::NotSupported("no range filter policy named in", value);
  }
  // What only a combination of knobs can break is the policy's to say
  // (PrepareOptions), which nested parsing may leave uncalled.
  if (s.ok() && policy != nullptr) {
    s = policy->PrepareOptions(config_options);
  }
  if (!s.ok()) {
    return s.IsInvalidArgument()
               ? s
               : Status::InvalidArgument("range_filter: " + s.ToString());
  }
  *result = std::move(policy);
  return s;
}

}  // namespace ROCKSDB_NAMESPACE
