import Foundation
import GraphQL
import Postgres
import StorykeepCore

/// The right to erasure: `erasePerson` (an agency admin) and `deleteMyAccount` (the person, where
/// the tenant allows it). The work is the database's `privacy_erase_person` (Migrations/
/// 0031_privacy_erasure.sql), in the request's transaction; this checks first what it can name
/// to the client (which argument is wrong), and the function checks it all again.
enum Erasure {
    /// The erased person, for the mutation's answer (`Erasure`).
    struct Erased: Sendable, GraphQLFieldReadable {
        var personID: UUID
        var erasedAt: Date

        func value(forField name: String) -> (any Sendable)? {
            switch name {
            case "personId": personID.lowercased
            case "erasedAt": DateTimeScalar.string(erasedAt)
            default: nil
            }
        }
    }

    /// The person `personID` as the caller sees them: display name and login name.
    static let person = "select display_name, coalesce(username, email) from people where tenant_id = current_tenant_id() and id = $1"
    static let erase = "select privacy_erase_person($1, $2)"

    /// Erases `personID` in `tx`, where the caller has been admitted: `confirm` must be the
    /// person's display name (`byAdmin`) or their login name (their own erasure).
    static func erase(_ personID: UUID, confirm: String, byAdmin: Bool, in tx: PostgresTransaction, now: Date) async throws -> Erased {
        guard let row = try await tx.query(person, personID).first else {
            throw GraphQLError.notFound("No such person in your agency.")
        }
        let expected = try row.decode(String.self, at: byAdmin ? 0 : 1)
        guard confirm == expected else {
            throw GraphQLError.badUserInput(
                field: "confirm",
                byAdmin
                    ? "confirm: type the person's name exactly as the agency has it, to show you mean to erase them."
                    : "confirm: type the name you log in with, to show you mean to delete your account.")
        }
        do {
            try await tx.execute(erase, personID, confirm)
        } catch let error as PostgresError where error.sqlState == "42501" {
            throw GraphQLError.forbidden()
        }
        return Erased(personID: personID, erasedAt: now)
    }
}
