import Foundation
import FuzzDriver

// The program's main, whichever the linker takes: SwiftPM's for this executable (this file), or
// libFuzzer's own; both run libFuzzer's driver over `fuzzOneInput` (FuzzTarget.swift).
exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv) { data, count in fuzzOneInput(data, count) })
