// Byte-level mutations of fuzz inputs, the kinds of damage a decoder meets:
// flipped bits, bytes set to boundary values, integers overwritten at any
// width, ranges cut, inserted or repeated, truncation, and splices of two
// inputs. No coverage feedback: the driver keeps what the target accepted
// (fuzz_target.h) and mutates that further, which carries mutants past a
// decoder's checks into the queries behind them.

#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {
namespace fuzz {

class FuzzMutator {
 public:
  explicit FuzzMutator(uint64_t seed) : rng_(seed) {}

  // `input` with one to four mutations applied; `other` is the second
  // input of a splice (may be `input` itself).
  std::string Mutate(const std::string& input, const std::string& other);

  // Uniform in [0, n); n > 0.
  uint64_t Below(uint64_t n) { return rng_() % n; }

 private:
  void MutateOnce(std::string* s, const std::string& other);
  // A value a length, count or offset field is likely to choke on.
  uint64_t BoundaryValue();

  std::mt19937_64 rng_;
};

}  // namespace fuzz
}  // namespace ROCKSDB_NAMESPACE
