public import StorykeepCore

/// The accounts module's part of a tenant file: `lockout` and `passwords`.
public struct AccountsSettings: TenantSettings {
    public static let keys = CodingKeys.allCases.map(\.rawValue)

    /// `lockout`: back-off after failed logins.
    public var lockout: LockoutPolicy
    /// `passwords`: what a password must be.
    public var passwords: PasswordPolicy

    public enum CodingKeys: String, CodingKey, CaseIterable { case lockout, passwords }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        lockout = try c.decode(LockoutPolicy.self, forKey: .lockout, default: LockoutPolicy())
        passwords = try c.decode(PasswordPolicy.self, forKey: .passwords, default: PasswordPolicy())
    }
}

extension TenantFile {
    /// `lockout` (``AccountsSettings``).
    public var lockout: LockoutPolicy {
        get { self[AccountsSettings.self].lockout }
        set { self[AccountsSettings.self].lockout = newValue }
    }

    /// `passwords` (``AccountsSettings``).
    public var passwords: PasswordPolicy {
        get { self[AccountsSettings.self].passwords }
        set { self[AccountsSettings.self].passwords = newValue }
    }
}

/// `lockout:` in a tenant file: after `freeAttempts` failures in a row, the n-th further failure
/// locks the name for 2^n seconds, never longer than `maxBackoffSeconds` (issue 4: from the 3rd
/// failure, so 2 free attempts by default; see `Lockout`).
public struct LockoutPolicy: Codable, Sendable, Equatable {
    /// `freeAttempts` (default 2, 1–20).
    public var freeAttempts: Int
    /// `maxBackoffSeconds` (default 900, 1–86400).
    public var maxBackoffSeconds: Int

    public init(freeAttempts: Int = 2, maxBackoffSeconds: Int = 900) {
        self.freeAttempts = freeAttempts
        self.maxBackoffSeconds = maxBackoffSeconds
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case freeAttempts, maxBackoffSeconds }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        freeAttempts = try c.decode(Int.self, forKey: .freeAttempts, default: 2, in: 1...20, "a number")
        maxBackoffSeconds = try c.decode(Int.self, forKey: .maxBackoffSeconds, default: 900, in: 1...86_400, "seconds")
    }
}

/// `passwords:` in a tenant file.
public struct PasswordPolicy: Codable, Sendable, Equatable {
    /// `minLength` (default 10, 10–128): characters a new password needs at least.
    public var minLength: Int

    public init(minLength: Int = 10) {
        self.minLength = minLength
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case minLength }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        minLength = try c.decode(Int.self, forKey: .minLength, default: 10, in: 10...128, "a length")
    }
}

