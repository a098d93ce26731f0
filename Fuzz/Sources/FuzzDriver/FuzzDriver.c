#include "FuzzDriver.h"

/// libFuzzer's driver, in the runtime that -sanitize=fuzzer links.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int fuzz_driver_run(int argc, char **argv, fuzz_driver_callback callback) {
    return LLVMFuzzerRunDriver(&argc, &argv, callback);
}
