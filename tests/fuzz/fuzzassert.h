#pragma once

#include <cstdio>

// A fuzz target's assertion: a property that must hold for every input. A violation
// aborts the run, so libFuzzer records the input as a crash (and CTest fails).
#define FUZZ_ASSERT(condition, what)                                                               \
    do {                                                                                           \
        if (!(condition)) {                                                                        \
            std::fprintf(stderr, "fuzz assertion failed: %s (%s)\n", what, #condition);            \
            __builtin_trap();                                                                      \
        }                                                                                          \
    } while (0)
