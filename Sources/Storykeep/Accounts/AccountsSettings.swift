public import StorykeepCore

// The accounts module's part of a tenant file: `lockout` and `passwords`, a section each
// (`TenantSection`).

extension TenantFile {
    /// `lockout`: back-off after failed logins.
    public var lockout: LockoutPolicy {
        get { self[LockoutPolicy.self] }
        set { self[LockoutPolicy.self] = newValue }
    }

    /// `passwords`: what a password must be.
    public var passwords: PasswordPolicy {
        get { self[PasswordPolicy.self] }
        set { self[PasswordPolicy.self] = newValue }
    }
}

/// `lockout:` in a tenant file: after `freeAttempts` failures in a row, the n-th further failure
/// locks the name for 2^n seconds, never longer than `maxBackoffSeconds` (issue 4: from the 3rd
/// failure, so 2 free attempts by default; see `Lockout`).
public struct LockoutPolicy: TenantFileValue {
    public static let tenantFileKey = "lockout"
    public static let defaultValue = LockoutPolicy()

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
public struct PasswordPolicy: TenantFileValue {
    public static let tenantFileKey = "passwords"
    public static let defaultValue = PasswordPolicy()

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


extension TenantFile {
    /// `accounts`: how people log in.
    public var accounts: AccountsPolicy {
        get { self[AccountsPolicy.self] }
        set { self[AccountsPolicy.self] = newValue }
    }
}

/// `accounts:` in a tenant file.
public struct AccountsPolicy: TenantFileValue {
    public static let tenantFileKey = "accounts"
    public static let defaultValue = AccountsPolicy()

    /// `adultsRequirePasskey` (default false): adults (carers, social workers, agency admins), who
    /// handle children's records, log in with their password and then a passkey of theirs; one
    /// who has no passkey yet logs in with the password alone, to register one. Young people are
    /// never asked for both.
    public var adultsRequirePasskey: Bool

    public init(adultsRequirePasskey: Bool = false) {
        self.adultsRequirePasskey = adultsRequirePasskey
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case adultsRequirePasskey }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        adultsRequirePasskey = try c.decode(Bool.self, forKey: .adultsRequirePasskey, default: false)
    }
}
