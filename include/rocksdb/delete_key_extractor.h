// Lodestone: secondary range deletes (Lethe's KiWi, docs/kiwi.md)
// delete "every entry whose delete key lies in [lo, hi)", where the delete
// key D is a second attribute of an entry (a timestamp, a tenant) and the
// tree is sorted on the user key. A column family names the extractor that
// says which delete key each entry has, as it names a prefix extractor.
//
// Configured from a string like a FilterPolicy: an id and its knobs,
// `{id=key_suffix;length=8}` (the last 8 bytes of the user key) or
// `{id=value_prefix;length=8}` (the first 8 bytes of the value). Delete
// keys compare bytewise, so a timestamp should be stored big-endian.

#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "rocksdb/customizable.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

struct ConfigOptions;

// Immutable once configured; shared by every column family options copy
// that holds it, and called by any thread. An extractor of one's own must
// be registered in ObjectLibrary::Default() under its Name(), so that
// OPTIONS files naming it load.
class DeleteKeyExtractor : public Customizable {
 public:
  static const char* Type() { return "DeleteKeyExtractor"; }

  // `value`: an id with its knobs ("{id=key_suffix;length=8}"), or empty /
  // "nullptr" for none (*result reset). An unknown id or knob, or a knob
  // out of range, fails with InvalidArgument naming it, *result unchanged.
  static Status CreateFromString(
      const ConfigOptions& config_options, const std::string& value,
      std::shared_ptr<const DeleteKeyExtractor>* result);

  // The delete key of the entry (`user_key`, `value`) in `*delete_key`,
  // pointing into either argument, and true; or false when the entry has
  // none (a secondary range delete never covers it). A pure function of its
  // arguments: the same entry always has the same delete key, wherever and
  // whenever it is asked.
  virtual bool Extract(const Slice& user_key, const Slice& value,
                       Slice* delete_key) const = 0;
};

// The built-ins. An entry shorter than `length` has no delete key.
// REQUIRES: 1 <= length <= kMaxDeleteKeyLength.
inline constexpr size_t kMaxDeleteKeyLength = 1024;
// The last `length` bytes of the user key (id "key_suffix").
std::shared_ptr<const DeleteKeyExtractor> NewKeySuffixDeleteKeyExtractor(
    size_t length);
// The first `length` bytes of the value (id "value_prefix").
std::shared_ptr<const DeleteKeyExtractor> NewValuePrefixDeleteKeyExtractor(
    size_t length);

}  // namespace ROCKSDB_NAMESPACE
