// A fuzz target: one decoder Lodestone adds, fed bytes that may be anything
// (a damaged or hostile file, a buggy writer, a bit flipped before the
// checksum was computed). The driver (fuzz_driver.cc) mutates the target's
// seeds, real encodings made by the code that writes them, and runs each
// mutant through the target under a time bound.
//
// Contract of FuzzTarget::run:
//  - It returns for every input. Bytes the decoder refuses are refused with
//    a Status (Corruption); run returns false then, true when the decoder
//    accepted them and the target went on to query what it decoded. The
//    driver keeps accepted mutants to mutate further, and fails a run whose
//    mutants were all refused or all accepted (it never reached past the
//    decoder's checks, or never past its seeds).
//  - A broken invariant (a decoded structure that contradicts itself, a
//    round trip that differs) calls FuzzFail, which names the invariant and
//    aborts. A crash, a sanitizer report or a hang fails the run too; each
//    saves the input that caused it (fuzz_driver.cc says where).
//  - It keeps no state between inputs that changes what an input does,
//    so a saved input replays alone (--replay).
//
// Targets register themselves at static initialization
// (LODESTONE_FUZZ_TARGET), so each one's file is linked into the driver
// directly, never through a static library that would drop it.

#pragma once

#include <string>
#include <vector>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"

namespace ROCKSDB_NAMESPACE {
namespace fuzz {

struct FuzzTarget {
  const char* name;
  // Real encodings to start from; never empty.
  std::vector<std::string> (*seeds)();
  bool (*run)(const Slice& input);
};

bool RegisterFuzzTarget(const FuzzTarget& target);

// Reports a broken invariant and aborts.
[[noreturn]] void FuzzFail(const char* invariant, const std::string& detail);

}  // namespace fuzz
}  // namespace ROCKSDB_NAMESPACE

#define LODESTONE_FUZZ_TARGET(name, seeds, run)                         \
  static const bool lodestone_fuzz_registered_##name [[maybe_unused]] = \
      ::ROCKSDB_NAMESPACE::fuzz::RegisterFuzzTarget({#name, seeds, run})
