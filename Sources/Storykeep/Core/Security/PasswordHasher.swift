import CArgon2
import Metrics
public import Postgres

/// Argon2id's three costs (RFC 9106): memory in KiB, passes over it, and lanes.
public struct Argon2Parameters: Sendable, Hashable, CustomStringConvertible {
    public var memoryKiB: Int
    public var iterations: Int
    public var parallelism: Int

    /// OWASP's minimum for Argon2id, m=19 MiB, t=2, p=1: the default, and the least Storykeep
    /// will hash new passwords with.
    public static let floor = Argon2Parameters(memoryKiB: 19_456, iterations: 2, parallelism: 1)

    public init(memoryKiB: Int, iterations: Int, parallelism: Int) {
        self.memoryKiB = memoryKiB
        self.iterations = iterations
        self.parallelism = parallelism
    }

    /// True when any of the three costs is below `other`'s: a hash made with these parameters
    /// should be made again with `other`'s (or stronger) at the next chance.
    public func isWeaker(than other: Argon2Parameters) -> Bool {
        memoryKiB < other.memoryKiB || iterations < other.iterations || parallelism < other.parallelism
    }

    public var description: String { "m=\(memoryKiB),t=\(iterations),p=\(parallelism)" }
}

/// What checking a password against a stored hash found.
public struct PasswordVerification: Sendable, Equatable {
    /// The password is the one the hash was made from.
    public var ok: Bool
    /// The password is right but its hash was made with weaker parameters (or an older Argon2
    /// version, or a shorter salt or hash) than the hasher's: store ``PasswordHasher/hash(_:)`` of
    /// it now, while the password is at hand.
    public var needsRehash: Bool
}

/// Why hashing or verifying failed.
public enum PasswordHashingError: Error, Equatable, CustomStringConvertible {
    /// The password is longer than ``PasswordHasher/maxPasswordBytes`` in UTF-8.
    case passwordTooLong
    /// The configured parameters are below ``Argon2Parameters/floor`` or beyond libargon2's range.
    case unacceptableParameters(Argon2Parameters)
    /// A stored hash is not an Argon2id string in PHC format.
    case unrecognisedHash
    /// libargon2 returned an error (for example, it could not allocate the memory asked for).
    case argon2(code: Int32, message: String)

    public var description: String {
        switch self {
        case .passwordTooLong: "the password is longer than \(PasswordHasher.maxPasswordBytes) bytes"
        case .unacceptableParameters(let p): "Argon2id parameters \(p) are below m=19456,t=2,p=1 or out of range"
        case .unrecognisedHash: "the stored password hash is not an Argon2id PHC string"
        case .argon2(let code, let message): "libargon2 error \(code): \(message)"
        }
    }
}

/// Hashes and verifies passwords with Argon2id through libargon2, on a bounded pool of threads.
///
/// Hashes are PHC strings, `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>` with unpadded base64, a
/// 16-byte salt from libcrypto's CSPRNG and a 32-byte hash: the parameters travel with each hash,
/// so raising them later leaves existing hashes verifiable and marks them for rehashing.
///
/// Every computation runs on `pool` (see ``BoundedWorkerPool``): a storm of logins queues there.
/// Callers must not hold scarce resources, such as a database connection, while they await it.
public struct PasswordHasher: Sendable {
    /// The longest password accepted, in UTF-8 bytes (NIST 800-63B asks for at least 64
    /// characters; a bound keeps the work per attempt bounded).
    public static let maxPasswordBytes = 256
    /// Bytes of salt in a new hash.
    public static let saltByteCount = 16
    /// Bytes of hash output in a new hash.
    public static let hashByteCount = 32

    /// The parameters new hashes are made with.
    public let parameters: Argon2Parameters
    private let pool: BoundedWorkerPool

    /// A hasher making hashes with `parameters` (never below ``Argon2Parameters/floor``) on `pool`.
    public init(parameters: Argon2Parameters = .floor, pool: BoundedWorkerPool) throws(PasswordHashingError) {
        let p = parameters
        // libargon2's own limits: 32-bit costs, at most 2^24 - 1 lanes (ARGON2_MAX_LANES, a macro
        // Swift cannot import) and 8 KiB of memory per lane.
        guard !p.isWeaker(than: .floor), p.memoryKiB <= Int(UInt32.max), p.iterations <= Int(UInt32.max),
            p.parallelism <= 0xFF_FFFF, p.memoryKiB >= 8 * p.parallelism
        else { throw .unacceptableParameters(parameters) }
        self.parameters = parameters
        self.pool = pool
    }

    /// A hasher with the configuration's `argon2.*` on a pool of its own: `threadCount` threads
    /// (by default `argon2.concurrentHashes`) at `argon2.threadNiceness`.
    public init(config: StorykeepConfig.Argon2, threadCount: Int? = nil) throws(PasswordHashingError) {
        try self.init(
            parameters: Argon2Parameters(memoryKiB: config.memoryKiB, iterations: config.iterations, parallelism: config.parallelism),
            pool: BoundedWorkerPool(threadCount: threadCount ?? config.concurrentHashes, name: "argon2", niceness: config.threadNiceness))
    }

    /// A new PHC string for `password`, with a fresh salt and the hasher's parameters.
    public func hash(_ password: String) async throws -> String {
        let password = try Self.bytes(of: password)
        let salt = try Crypto.randomBytes(Self.saltByteCount)
        let parameters = self.parameters
        return try await run { try Self.hashEncoded(password, salt: salt, parameters: parameters) }
    }

    /// Checks `password` against `stored`, a PHC string made by ``hash(_:)``.
    ///
    /// When there is no stored hash (no such account, or one never activated), pass nil: the
    /// answer is "wrong" after hashing `password` with the hasher's parameters, which costs what
    /// checking a real hash of those parameters costs. Whether an account exists then shows
    /// neither in the answer nor in its time.
    ///
    /// Throws ``PasswordHashingError/passwordTooLong`` for an over-long password, before any
    /// work and whether or not `stored` is nil.
    public func verify(_ password: String, against stored: String?) async throws -> PasswordVerification {
        let password = try Self.bytes(of: password)
        guard let stored else {
            let salt = try Crypto.randomBytes(Self.saltByteCount)
            let parameters = self.parameters
            _ = try await run { try Self.hashEncoded(password, salt: salt, parameters: parameters) }
            return PasswordVerification(ok: false, needsRehash: false)
        }
        guard let phc = PHCString(stored) else { throw PasswordHashingError.unrecognisedHash }
        let ok = try await run { try Self.verifyEncoded(password, against: stored) }
        return PasswordVerification(ok: ok, needsRehash: ok && phc.isWeaker(than: parameters))
    }

    /// Runs one computation on the pool, measured: `storykeep_argon2_queue_length` (computations
    /// waiting for a thread), the histograms `storykeep_argon2_wait_seconds` (the wait for one)
    /// and `storykeep_argon2_seconds` (the computation).
    private func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let queued = ContinuousClock.now
        let queue = Meter(label: "storykeep_argon2_queue_length")
        queue.increment()
        return try await pool.run {
            let started = ContinuousClock.now
            queue.decrement()
            Timer(label: "storykeep_argon2_wait_seconds").record(duration: queued.duration(to: started))
            defer { Timer(label: "storykeep_argon2_seconds").record(duration: started.duration(to: .now)) }
            return try work()
        }
    }

    private static func bytes(of password: String) throws(PasswordHashingError) -> [UInt8] {
        let bytes = Array(password.utf8)
        guard bytes.count <= maxPasswordBytes else { throw .passwordTooLong }
        return bytes
    }

    /// Runs on a pool thread: `argon2id_hash_encoded`.
    static func hashEncoded(_ password: [UInt8], salt: [UInt8], parameters p: Argon2Parameters) throws -> String {
        let (t, m, lanes) = (UInt32(p.iterations), UInt32(p.memoryKiB), UInt32(p.parallelism))
        // The length includes the terminating NUL.
        let length = argon2_encodedlen(t, m, lanes, UInt32(salt.count), UInt32(hashByteCount), Argon2_id)
        var encoded = [CChar](repeating: 0, count: length)
        let status = password.withUnsafeBytes { password in
            salt.withUnsafeBytes { salt in
                encoded.withUnsafeMutableBufferPointer { encoded in
                    argon2id_hash_encoded(
                        t, m, lanes, password.baseAddress, password.count, salt.baseAddress, salt.count,
                        hashByteCount, encoded.baseAddress, encoded.count)
                }
            }
        }
        guard status == ARGON2_OK.rawValue else { throw argon2Error(status) }
        return String(decoding: encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Runs on a pool thread: `argon2id_verify`, which recomputes the hash with the parameters and
    /// salt in `stored` and compares in constant time.
    private static func verifyEncoded(_ password: [UInt8], against stored: String) throws -> Bool {
        let status = password.withUnsafeBytes { password in
            argon2id_verify(stored, password.baseAddress, password.count)
        }
        switch status {
        case ARGON2_OK.rawValue: return true
        case ARGON2_VERIFY_MISMATCH.rawValue: return false
        case ARGON2_DECODING_FAIL.rawValue, ARGON2_DECODING_LENGTH_FAIL.rawValue: throw PasswordHashingError.unrecognisedHash
        default: throw argon2Error(status)
        }
    }

    private static func argon2Error(_ status: Int32) -> PasswordHashingError {
        .argon2(code: status, message: String(cString: argon2_error_message(status)))
    }
}

/// The fields of an Argon2id PHC string, `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`, as far as
/// deciding whether to rehash needs them. libargon2 does the real decoding when it verifies.
struct PHCString: Equatable {
    var version: Int
    var parameters: Argon2Parameters
    var saltByteCount: Int
    var hashByteCount: Int

    init?(_ text: String) {
        let fields = text.split(separator: "$", omittingEmptySubsequences: false)
        // "", "argon2id", ["v=19",] "m=...,t=...,p=...", salt, hash; no version field means 0x10.
        guard fields.count == 5 || fields.count == 6, fields[0].isEmpty, fields[1] == "argon2id" else { return nil }
        var next = 2
        if fields.count == 6 {
            guard fields[2].hasPrefix("v="), let version = Int(fields[2].dropFirst(2)) else { return nil }
            self.version = version
            next = 3
        } else {
            version = 0x10
        }
        var costs: [Substring: Int] = [:]
        for pair in fields[next].split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let value = Int(parts[1]), costs.updateValue(value, forKey: parts[0]) == nil else { return nil }
        }
        guard costs.count == 3, let m = costs["m"], let t = costs["t"], let p = costs["p"] else { return nil }
        parameters = Argon2Parameters(memoryKiB: m, iterations: t, parallelism: p)
        // Unpadded base64: four characters carry three bytes.
        saltByteCount = fields[next + 1].utf8.count * 3 / 4
        hashByteCount = fields[next + 2].utf8.count * 3 / 4
    }

    /// True when a hash of these fields is weaker than what `configured` would make now.
    func isWeaker(than configured: Argon2Parameters) -> Bool {
        version != Int(ARGON2_VERSION_13.rawValue) || parameters.isWeaker(than: configured)
            || saltByteCount < PasswordHasher.saltByteCount || hashByteCount < PasswordHasher.hashByteCount
    }
}
