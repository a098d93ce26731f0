import Foundation
import StorykeepCore
import GraphQL
import Postgres

/// Checks of what people type, answering BAD_USER_INPUT naming the field, before the database's
/// own constraints (Migrations/0002_accounts.sql) would refuse it less kindly. Like those, they
/// read text as Unicode code points: a pattern matches scalar by scalar (not by the characters a
/// screen shows, where "@" and a combining accent after it would be one character and no "@").
enum PeopleInput {
    /// A username as `people_username_format` wants it: 3 to 40 letters, digits, `.`, `_`, `-`,
    /// starting with a letter or digit. Returned trimmed.
    static func username(_ text: String, field: String) throws -> String {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard name.wholeMatch(of: /[A-Za-z0-9][A-Za-z0-9._-]{2,39}/.matchingSemantics(.unicodeScalar)) != nil else {
            throw GraphQLError.badUserInput(
                field: field, "A username has 3 to 40 letters, digits, dots, dashes or underscores, and starts with a letter or digit.")
        }
        return name
    }

    /// An email address: something, one `@`, something, no spaces, at most 254 characters
    /// (``TextLimit/email``). Returned trimmed.
    static func email(_ text: String, field: String) throws -> String {
        let email = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard TextLimit.email.admits(email), email.wholeMatch(of: /[^@\s]+@[^@\s]+/.matchingSemantics(.unicodeScalar)) != nil
        else {
            throw GraphQLError.badUserInput(field: field, "That does not look like an email address.")
        }
        return email
    }

    /// Trimmed text within `limit`.
    static func text(_ text: String, field: String, what: String, limit: TextLimit) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard limit.admits(trimmed) else {
            throw GraphQLError.badUserInput(field: field, "\(what) must have \(limit).")
        }
        return trimmed
    }

    /// A new password under the tenant's policy (NIST 800-63B): long enough, not too long, no
    /// other rules. Its length is counted in Unicode code points, as NIST asks and as every
    /// length limit is (``TextLimit``); the upper bound is Argon2's input, in bytes.
    static func newPassword(_ password: String, policy: PasswordPolicy, field: String) throws {
        guard TextLimit.length(of: password) >= policy.minLength else {
            throw GraphQLError.badUserInput(field: field, "Your password needs at least \(policy.minLength) characters.")
        }
        guard password.utf8.count <= PasswordHasher.maxPasswordBytes else {
            throw GraphQLError.badUserInput(field: field, "That password is too long (at most \(PasswordHasher.maxPasswordBytes) bytes).")
        }
    }

    /// Runs `body`, turning a unique violation of `people` into BAD_USER_INPUT naming `field`, or
    /// the field of the index that refused it when `field` is nil (`input.username`, ...).
    static func uniquely<T>(field: String? = nil, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PostgresError where error.sqlState == PostgresError.SQLState.uniqueViolation {
            let (name, what): (String, String) =
                switch error.constraintName {
                case "people_email": ("input.email", "email")
                case "people_external_ref": ("input.externalRef", "case reference")
                default: ("input.username", "username")
                }
            throw GraphQLError.badUserInput(field: field ?? name, "Someone in this agency already has this \(what). Please choose another.")
        }
    }
}
