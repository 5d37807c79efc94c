// Fuzz target planted_trusted_length, the driver's self-test: a decoder of
// length-prefixed strings that trusts the length (the defect a fuzzer is
// for), with the read past the end turned into an invariant failure so
// that no build needs a sanitizer to see it. ctest runs it and expects the
// driver to find the defect, name it and save the input; `all` leaves
// planted targets out.

#include "tests/fuzz/fuzz_target.h"
#include "util/coding.h"

namespace ROCKSDB_NAMESPACE {

namespace {

std::vector<std::string> Seeds() {
  std::string seed;
  for (const char* s : {"alpha", "bravo", "charlie"}) {
    PutLengthPrefixedSlice(&seed, s);
  }
  return {seed};
}

bool Run(const Slice& input) {
  Slice in = input;
  while (!in.empty()) {
    uint32_t length = 0;
    if (!GetVarint32(&in, &length)) {
      return false;
    }
    if (length > in.size()) {  // The planted defect: no refusal here.
      fuzz::FuzzFail(
          "a length field is checked before it is trusted",
          std::to_string(length) + " > " + std::to_string(in.size()));
    }
    in.remove_prefix(length);
  }
  return true;
}

}  // namespace

LODESTONE_FUZZ_TARGET(planted_trusted_length, Seeds, Run);

}  // namespace ROCKSDB_NAMESPACE
