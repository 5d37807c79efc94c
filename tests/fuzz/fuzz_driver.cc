// The fuzz driver: runs the targets registered with LODESTONE_FUZZ_TARGET.
//
//   lodestone_fuzz --list
//   lodestone_fuzz --target=NAME[,NAME...]|all [--seconds=N] [--runs=N]
//                  (all: every target but the planted_* self-tests)
//                  [--seed=S] [--crash_dir=DIR]
//   lodestone_fuzz --target=NAME --replay=FILE [FILE...]
//
// Each target first runs its seeds unmutated (each must be accepted: a real
// encoding the decoder refuses is a failure), then mutants of its pool
// (seeds and accepted mutants) until --seconds (split evenly over the
// targets) or --runs per target is reached, whichever comes first. A run
// fails, exit status 1, when an invariant breaks, the process crashes or a
// sanitizer reports, an input takes longer than kHangSeconds, or the target
// was idle: no mutant accepted, or every mutant accepted. The input of a
// failure is written to --crash_dir (default: the working directory) as
// fuzz-<target>-seed<S>.input, for --replay. Same seed, same binary: same
// inputs.

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_mutator.h"
#include "tests/fuzz/fuzz_target.h"

extern "C" void __sanitizer_set_death_callback(void (*)(void))
    __attribute__((weak));

namespace ROCKSDB_NAMESPACE {
namespace fuzz {

namespace {

constexpr unsigned kHangSeconds = 30;
constexpr size_t kMaxPool = 1024;
constexpr size_t kMaxInputBytes = 1 << 20;

std::vector<FuzzTarget>& Registry() {
  static std::vector<FuzzTarget> targets;
  return targets;
}

// What a signal handler writes out: the input being run and where.
std::string g_input;
char g_crash_path[4096];

void SaveInput() {
  if (g_crash_path[0] == '\0') {
    return;
  }
  const int fd = open(g_crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    ssize_t ignored = write(fd, g_input.data(), g_input.size());
    (void)ignored;
    close(fd);
    const char msg[] = "fuzz: the failing input is saved in ";
    ignored = write(2, msg, sizeof(msg) - 1);
    ignored = write(2, g_crash_path, strlen(g_crash_path));
    ignored = write(2, "\n", 1);
  }
  g_crash_path[0] = '\0';
}

void OnFatalSignal(int sig) {
  if (sig == SIGALRM) {
    const char msg[] = "fuzz: an input ran longer than the hang bound\n";
    ssize_t ignored = write(2, msg, sizeof(msg) - 1);
    (void)ignored;
  }
  SaveInput();
  signal(sig == SIGALRM ? SIGABRT : sig, SIG_DFL);
  raise(sig == SIGALRM ? SIGABRT : sig);
}

void InstallHandlers() {
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM}) {
    signal(sig, OnFatalSignal);
  }
  if (__sanitizer_set_death_callback != nullptr) {
    __sanitizer_set_death_callback(SaveInput);
  }
}

bool RunOne(const FuzzTarget& target, const std::string& input) {
  g_input = input;
  alarm(kHangSeconds);
  const bool accepted = target.run(input);
  alarm(0);
  return accepted;
}

struct Args {
  std::vector<std::string> targets;
  double seconds = 10;
  uint64_t runs = 0;  // 0: bounded by time alone.
  uint64_t seed = 1;
  std::string crash_dir = ".";
  std::vector<std::string> replay;
  bool list = false;
};

bool StartsWith(const std::string& s, const char* prefix, std::string* rest) {
  const size_t n = strlen(prefix);
  if (s.compare(0, n, prefix) != 0) {
    return false;
  }
  *rest = s.substr(n);
  return true;
}

bool ParseArgs(int argc, char** argv, Args* args) {
  bool replaying = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    std::string v;
    if (a == "--list") {
      args->list = true;
    } else if (StartsWith(a, "--target=", &v)) {
      std::stringstream names(v);
      std::string name;
      while (std::getline(names, name, ',')) {
        args->targets.push_back(name);
      }
    } else if (StartsWith(a, "--seconds=", &v)) {
      args->seconds = std::strtod(v.c_str(), nullptr);
    } else if (StartsWith(a, "--runs=", &v)) {
      args->runs = std::strtoull(v.c_str(), nullptr, 10);
    } else if (StartsWith(a, "--seed=", &v)) {
      args->seed = std::strtoull(v.c_str(), nullptr, 10);
    } else if (StartsWith(a, "--crash_dir=", &v)) {
      args->crash_dir = v;
    } else if (StartsWith(a, "--replay=", &v)) {
      args->replay.push_back(v);
      replaying = true;
    } else if (replaying && a.compare(0, 2, "--") != 0) {
      args->replay.push_back(a);
    } else {
      fprintf(stderr, "lodestone_fuzz: unknown argument %s\n", a.c_str());
      return false;
    }
  }
  return true;
}

const FuzzTarget* Find(const std::string& name) {
  for (const FuzzTarget& t : Registry()) {
    if (name == t.name) {
      return &t;
    }
  }
  return nullptr;
}

bool Replay(const FuzzTarget& target, const std::vector<std::string>& files) {
  for (const std::string& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      fprintf(stderr, "fuzz: cannot read %s\n", file.c_str());
      return false;
    }
    std::stringstream bytes;
    bytes << in.rdbuf();
    const bool accepted = RunOne(target, bytes.str());
    printf("fuzz %s: %s replayed, %s\n", target.name, file.c_str(),
           accepted ? "accepted" : "refused");
  }
  return true;
}

bool Fuzz(const FuzzTarget& target, const Args& args, double seconds) {
  snprintf(g_crash_path, sizeof(g_crash_path),
           "%s/fuzz-%s-seed%" PRIu64 ".input", args.crash_dir.c_str(),
           target.name, args.seed);
  const std::vector<std::string> seeds = target.seeds();
  if (seeds.empty()) {
    FuzzFail("a target has seeds", target.name);
  }
  for (const std::string& seed : seeds) {
    if (!RunOne(target, seed)) {
      FuzzFail("every seed is accepted", target.name);
    }
  }
  std::vector<std::string> pool = seeds;
  FuzzMutator mutator(args.seed);
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration<double>(seconds);
  uint64_t runs = 0;
  uint64_t accepted = 0;
  while ((args.runs == 0 || runs < args.runs) &&
         ((runs & 15) != 0 || std::chrono::steady_clock::now() < deadline)) {
    // Half the mutants start from a seed: mutants of mutants drift toward
    // small inputs that decode to little.
    const std::string& from = mutator.Below(2) == 0
                                  ? seeds[mutator.Below(seeds.size())]
                                  : pool[mutator.Below(pool.size())];
    const std::string& other = pool[mutator.Below(pool.size())];
    std::string input = mutator.Mutate(from, other);
    if (input.size() > kMaxInputBytes) {
      input.resize(kMaxInputBytes);
    }
    ++runs;
    if (RunOne(target, input)) {
      ++accepted;
      if (pool.size() < kMaxPool) {
        pool.push_back(std::move(input));
      } else {
        pool[seeds.size() + mutator.Below(kMaxPool - seeds.size())] =
            std::move(input);
      }
    }
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  printf("fuzz %s: %" PRIu64 " mutants (%zu seeds), %" PRIu64
         " accepted, %.1f s, seed %" PRIu64 "\n",
         target.name, runs, seeds.size(), accepted, elapsed, args.seed);
  g_crash_path[0] = '\0';
  if (runs > 0 && (accepted == 0 || accepted == runs)) {
    fprintf(
        stderr,
        "fuzz %s: idle, %s mutant was accepted: the mutants never "
        "reached %s\n",
        target.name, accepted == 0 ? "no" : "every",
        accepted == 0 ? "past the decoder's checks" : "the decoder's checks");
    return false;
  }
  return runs > 0;
}

}  // namespace

bool RegisterFuzzTarget(const FuzzTarget& target) {
  Registry().push_back(target);
  return true;
}

void FuzzFail(const char* invariant, const std::string& detail) {
  fprintf(stderr, "fuzz: invariant broken: %s (%s)\n", invariant,
          detail.c_str());
  fflush(stderr);
  abort();
}

int Main(int argc, char** argv) {
  setvbuf(stdout, nullptr, _IOLBF, 0);  // Lines survive an abort.
  Args args;
  if (!ParseArgs(argc, argv, &args)) {
    return 2;
  }
  if (args.list) {
    for (const FuzzTarget& t : Registry()) {
      printf("%s\n", t.name);
    }
    return 0;
  }
  std::vector<const FuzzTarget*> targets;
  for (const std::string& name : args.targets) {
    if (name == "all") {
      for (const FuzzTarget& t : Registry()) {
        if (strncmp(t.name, "planted_", 8) != 0) {  // Self-tests.
          targets.push_back(&t);
        }
      }
    } else if (const FuzzTarget* t = Find(name)) {
      targets.push_back(t);
    } else {
      fprintf(stderr, "lodestone_fuzz: no target %s (--list)\n", name.c_str());
      return 2;
    }
  }
  if (targets.empty()) {
    fprintf(stderr, "lodestone_fuzz: --target=NAME|all, or --list\n");
    return 2;
  }
  InstallHandlers();
  if (!args.replay.empty()) {
    return targets.size() == 1 && Replay(*targets[0], args.replay) ? 0 : 1;
  }
  bool ok = true;
  for (const FuzzTarget* t : targets) {
    ok = Fuzz(*t, args, args.seconds / static_cast<double>(targets.size())) &&
         ok;
  }
  return ok ? 0 : 1;
}

}  // namespace fuzz
}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  return ROCKSDB_NAMESPACE::fuzz::Main(argc, argv);
}
