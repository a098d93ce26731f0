#ifndef FUZZ_DRIVER_H
#define FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// What libFuzzer calls with each input; 0 to go on.
typedef int (*fuzz_driver_callback)(const uint8_t *data, size_t size);

/// Runs libFuzzer's driver (`LLVMFuzzerRunDriver`, LLVM 11 and later) with the command line and
/// `callback`, as libFuzzer's own main does.
int fuzz_driver_run(int argc, char **argv, fuzz_driver_callback callback);

#endif
