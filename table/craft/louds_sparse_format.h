// The bytes of a LOUDS-Sparse partition that its builder writes and its
// decoder reads (FORMAT.md, "Partition"): format versions, flags and the
// widest suffixes. Internal to louds_sparse_*.cc.

#pragma once

#include <cstdint>

#include "table/craft/louds_sparse.h"

namespace ROCKSDB_NAMESPACE {

// Format versions: a byte per label; per-level label coding; format 2
// over order-preserving coded keys.
constexpr uint8_t kLoudsSparseFormatPlainLabels = 1;
constexpr uint8_t kLoudsSparseFormatCompactLabels = 2;
constexpr uint8_t kLoudsSparseFormatCodedKeys = 3;
constexpr uint32_t kLoudsSparsePlainLabelBits = 8;
constexpr uint8_t kLoudsSparseFlagEmptyKey = 1;
constexpr uint32_t kLoudsSparseMaxRealBits =
    LoudsSparseOptions::kMaxRealSuffixBits;
constexpr uint32_t kLoudsSparseMaxHashBits =
    LoudsSparseOptions::kMaxHashSuffixBits;
// A leaf's real and hash suffixes together fill at most one 64-bit field.
constexpr uint32_t kLoudsSparseMaxSuffixBits =
    LoudsSparseOptions::kMaxSuffixBits;

}  // namespace ROCKSDB_NAMESPACE
