import Foundation
import Postgres
import Synchronization
import Testing

import Storykeep
@testable import StorykeepCore

/// One pool for the hashing tests of this file: two threads, as on the machines we run on.
private let pool = BoundedWorkerPool(threadCount: 2, name: "argon2-test")

private func hasher(_ parameters: Argon2Parameters = .floor) throws -> PasswordHasher {
    try PasswordHasher(parameters: parameters, pool: pool)
}

@Suite("Accounts: Argon2id password hashing")
struct AccountsPasswordTests {
    @Test func hashesInPHCFormatWithConfiguredParameters() async throws {
        let phc = try await hasher().hash("correct horse battery staple")
        // 16 bytes of salt and 32 of hash in unpadded standard base64: 22 and 43 characters.
        let shape = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+\/]{22}\$[A-Za-z0-9+\/]{43}$/
        #expect(phc.wholeMatch(of: shape) != nil, "\(phc)")

        let stronger = try await hasher(Argon2Parameters(memoryKiB: 20_000, iterations: 3, parallelism: 2)).hash("x")
        #expect(stronger.hasPrefix("$argon2id$v=19$m=20000,t=3,p=2$"))
    }

    @Test func saltsDiffer() async throws {
        let hasher = try hasher()
        let first = try await hasher.hash("same password")
        let second = try await hasher.hash("same password")
        #expect(first != second)
        #expect(try await hasher.verify("same password", against: first).ok)
        #expect(try await hasher.verify("same password", against: second).ok)
    }

    @Test func verifiesRightAndRefusesWrongPasswords() async throws {
        let hasher = try hasher()
        let phc = try await hasher.hash("correct horse battery staple")
        #expect(try await hasher.verify("correct horse battery staple", against: phc) == .init(ok: true, needsRehash: false))
        #expect(try await hasher.verify("correct horse battery stapler", against: phc) == .init(ok: false, needsRehash: false))
        #expect(try await hasher.verify("Correct horse battery staple", against: phc).ok == false)
        #expect(try await hasher.verify("", against: phc).ok == false)
    }

    /// A hash made elsewhere: the `argon2` reference command line's output for password
    /// "password", salt "somesalt", t=2, m=2^16 KiB, p=1 (also in libargon2's own tests).
    @Test func verifiesHashesOfTheReferenceImplementation() async throws {
        let reference = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"
        let hasher = try hasher()
        // Right, and to be rehashed: its 8-byte salt is shorter than the 16 bytes we use.
        #expect(try await hasher.verify("password", against: reference) == .init(ok: true, needsRehash: true))
        #expect(try await hasher.verify("passwore", against: reference).ok == false)
    }

    @Test func asksForARehashWhenStoredParametersAreWeaker() async throws {
        let floor = try hasher()
        let raised = try hasher(Argon2Parameters(memoryKiB: 19_456, iterations: 3, parallelism: 1))
        let weak = try await floor.hash("a long enough password")
        let strong = try await raised.hash("a long enough password")

        #expect(try await raised.verify("a long enough password", against: weak) == .init(ok: true, needsRehash: true))
        // Only a right password can be rehashed.
        #expect(try await raised.verify("the wrong password", against: weak) == .init(ok: false, needsRehash: false))
        // Stronger than configured is left alone.
        #expect(try await floor.verify("a long enough password", against: strong) == .init(ok: true, needsRehash: false))
        #expect(try await raised.verify("a long enough password", against: strong) == .init(ok: true, needsRehash: false))
    }

    @Test func weakerMeansAnyCostOrTheFormatBelowTheConfigured() throws {
        let configured = Argon2Parameters.floor
        func weaker(_ phc: String) throws -> Bool { try #require(PHCString(phc)).isWeaker(than: configured) }
        let salt = "c29tZXNhbHRzb21lc2FsdA", hash = "CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"
        #expect(try weaker("$argon2id$v=19$m=19456,t=2,p=1$\(salt)$\(hash)") == false)
        #expect(try weaker("$argon2id$v=19$m=19455,t=2,p=1$\(salt)$\(hash)"))
        #expect(try weaker("$argon2id$v=19$m=65536,t=1,p=1$\(salt)$\(hash)"))
        #expect(try weaker("$argon2id$v=19$m=65536,t=3,p=1$c29tZXNhbHQ$\(hash)"), "an 8-byte salt")
        #expect(try weaker("$argon2id$v=19$m=65536,t=3,p=1$\(salt)$CTFhFdXPJO1aFaMaO6Mm5c"), "a 16-byte hash")
        #expect(try weaker("$argon2id$m=65536,t=3,p=1$\(salt)$\(hash)"), "version 1.0, which has no v= field")
        #expect(try weaker("$argon2id$v=19$p=1,t=2,m=19456$\(salt)$\(hash)") == false, "costs in any order")

        for malformed in [
            "", "$argon2i$v=19$m=19456,t=2,p=1$\(salt)$\(hash)", "$2b$12$abcdefghijklmnopqrstuv",
            "$argon2id$v=19$m=19456,t=2$\(salt)$\(hash)", "$argon2id$v=19$m=19456,t=2,p=1,p=1$\(salt)$\(hash)",
            "$argon2id$v=x$m=19456,t=2,p=1$\(salt)$\(hash)", "argon2id$v=19$m=19456,t=2,p=1$\(salt)$\(hash)",
        ] {
            #expect(PHCString(malformed) == nil, "\(malformed)")
        }
    }

    @Test func refusesStoredStringsThatAreNotArgon2id() async throws {
        let hasher = try hasher()
        for stored in ["", "plaintext", "$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA"] {
            await #expect(throws: PasswordHashingError.unrecognisedHash) { try await hasher.verify("password", against: stored) }
        }
        // Well-formed fields around a salt libargon2 cannot decode.
        await #expect(throws: PasswordHashingError.unrecognisedHash) {
            try await hasher.verify("password", against: "$argon2id$v=19$m=65536,t=2,p=1$!!!!$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc")
        }
    }

    @Test func passwordsUpTo256BytesOnly() async throws {
        let hasher = try hasher()
        let longest = String(repeating: "é", count: 128)  // two bytes each in UTF-8
        let phc = try await hasher.hash(longest)
        #expect(try await hasher.verify(longest, against: phc).ok)

        let tooLong = longest + "a"
        await #expect(throws: PasswordHashingError.passwordTooLong) { try await hasher.hash(tooLong) }
        await #expect(throws: PasswordHashingError.passwordTooLong) { try await hasher.verify(tooLong, against: phc) }
        await #expect(throws: PasswordHashingError.passwordTooLong) { try await hasher.verify(tooLong, against: nil) }
        await #expect(throws: PasswordHashingError.passwordTooLong) { try await hasher.hash(String(repeating: "a", count: 257)) }
        #expect(try await hasher.hash(String(repeating: "a", count: 256)).hasPrefix("$argon2id$"))
    }

    @Test func anUnknownAccountIsAlwaysWrong() async throws {
        let hasher = try hasher()
        #expect(try await hasher.verify("any password", against: nil) == .init(ok: false, needsRehash: false))
        #expect(try await hasher.verify("", against: nil) == .init(ok: false, needsRehash: false))
    }

    @Test func refusesParametersBelowTheFloor() throws {
        for parameters in [
            Argon2Parameters(memoryKiB: 19_455, iterations: 2, parallelism: 1),
            Argon2Parameters(memoryKiB: 65_536, iterations: 1, parallelism: 1),
            Argon2Parameters(memoryKiB: 65_536, iterations: 2, parallelism: 0),
            Argon2Parameters(memoryKiB: Int(UInt32.max) + 1, iterations: 2, parallelism: 1),
        ] {
            #expect(throws: PasswordHashingError.unacceptableParameters(parameters)) {
                try PasswordHasher(parameters: parameters, pool: pool)
            }
        }
    }
}

/// Counts jobs running at once and remembers the most seen.
private final class Concurrency: Sendable {
    private let state = Mutex((running: 0, peak: 0, entered: 0, finished: 0))

    func enter() { state.withLock { $0.running += 1; $0.entered += 1; $0.peak = max($0.peak, $0.running) } }
    func leave() { state.withLock { $0.running -= 1; $0.finished += 1 } }
    var peak: Int { state.withLock { $0.peak } }
    var entered: Int { state.withLock { $0.entered } }
    var finished: Int { state.withLock { $0.finished } }
}

@Suite("Accounts: the bounded Argon2 pool")
struct AccountsWorkerPoolTests {
    @Test func fiftyConcurrentHashesNeverRunMoreThanThePoolsThreads() async throws {
        let pool = BoundedWorkerPool(threadCount: 2, name: "argon2-bound-test")
        let counter = Concurrency()
        let salt = try Crypto.randomBytes(PasswordHasher.saltByteCount)
        let hashes = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<50 {
                group.addTask {
                    try await pool.run {
                        counter.enter()
                        defer { counter.leave() }
                        return try PasswordHasher.hashEncoded(Array("password \(index)".utf8), salt: salt, parameters: .floor)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(hashes).count == 50)
        #expect(counter.finished == 50)
        #expect(counter.peak == 2, "at most, and with 50 queued at least, two at once")
    }

    /// The pool's one thread is held until the end, so no hash can finish before it: 50 hashes
    /// queued behind it must hold no thread of the cooperative pool (it has one per core), or the
    /// task that waits for them all to be asked for never runs again and the time limit fails the
    /// test. It does not depend on how fast the machine is.
    @Test(.timeLimit(.minutes(1))) func aStormOfHashesLeavesTheCooperativePoolFree() async throws {
        let pool = BoundedWorkerPool(threadCount: 1, name: "argon2-storm-test")
        let hasher = try PasswordHasher(pool: pool)
        let held = DispatchSemaphore(value: 0)
        pool.submit { held.wait() }
        let counter = Concurrency()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    counter.enter()
                    defer { counter.leave() }
                    _ = try await hasher.hash("storm")
                }
            }
            while counter.entered < 50 { try await Task.sleep(for: .milliseconds(1)) }
            // Every hash is asked for and waits, and a quick task still runs.
            await Task.detached { await Task.yield() }.value
            #expect(counter.finished == 0)
            held.signal()
            try await group.waitForAll()
        }
        #expect(counter.finished == 50)
    }

    @Test func errorsReachTheCaller() async throws {
        struct Boom: Error {}
        let pool = BoundedWorkerPool(threadCount: 1, name: "pool-error-test")
        await #expect(throws: Boom.self) { try await pool.run { throw Boom() } }
        #expect(try await pool.run { 42 } == 42)
    }
}
