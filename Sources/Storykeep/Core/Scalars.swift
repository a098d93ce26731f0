public import Foundation
public import GraphQL
import Postgres

/// The core of every tenant's schema (`Schema/core.graphql`): the root types the modules extend,
/// the scalars they share (`Date`, `DateTime`, `Upload`) and Relay's `PageInfo`.
public enum CoreSchema {
    /// Its SDL file in `Schema/`, composed before every module's.
    public static let sdl = "core"

    /// Gives the shared scalars their coercion.
    public static func configure(_ schema: GraphQLSchema) {
        DateScalar.configure(in: schema)
        GraphQLUpload.configureScalar(in: schema)
    }
}

/// The `DateTime` scalar's text: ISO 8601 in UTC with milliseconds.
public enum DateTimeScalar {
    public static func string(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

/// The `Date` scalar: a calendar day, `YYYY-MM-DD`, a real one (no 31 June).
enum DateScalar {
    static func configure(in schema: GraphQLSchema) {
        guard case .scalar(let scalar) = schema.type(named: "Date") else { return }
        scalar.parseValue = { value in
            guard case .string(let text) = value, PostgresDate(text) != nil else {
                throw GraphQLError(message: "Date must be a day written YYYY-MM-DD, e.g. 2026-11-24.")
            }
            return value
        }
        scalar.parseLiteral = { literal in
            guard case .string(let text) = literal, PostgresDate(text.value) != nil else {
                throw GraphQLError(message: "Date must be a day written YYYY-MM-DD, e.g. 2026-11-24.")
            }
            return .string(text.value)
        }
        scalar.serialize = { value in
            switch value {
            case let value as GraphQLValue: return value
            case let date as PostgresDate: return .string(date.description)
            default: throw GraphQLError(message: "Date cannot represent \(value).")
            }
        }
    }
}
