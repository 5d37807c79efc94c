// Named option sets for the differential harness. Each Lodestone feature
// registers the set that turns it on; the planted-bug sets exist to prove
// that the harness notices wrong answers.

#pragma once

#include <string>
#include <vector>

#include "tests/differential/harness.h"

namespace lodestone_test {

// Looks up a set by name; returns false if there is none.
bool FindOptionSet(const std::string& name, OptionSet* set);

// The names of all sets, for --help.
std::vector<std::string> OptionSetNames();

// The op mix a set needs (e.g. initial puts once the feature is on).
OpMix MixFor(const std::vector<OptionSet>& sets);

}  // namespace lodestone_test
