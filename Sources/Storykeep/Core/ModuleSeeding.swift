public import Foundation
public import Postgres

/// One tenant of `storykeep seed`, as a module's ``StorykeepModule/seed(_:)`` sees it: its people
/// and journals are in the database, and the modules before this one in the composition have
/// seeded theirs (the caseload's assignments before the shares that need them).
public struct ModuleSeedTenant: Sendable {
    /// A seeded person: who they are and their place in the tenant's list.
    public struct Person: Sendable, Hashable {
        public var id: UUID
        public var role: PersonRole
        /// Their position among the tenant's people: the same seed, the same position.
        public var index: Int

        public init(id: UUID, role: PersonRole, index: Int) {
            self.id = id
            self.role = role
            self.index = index
        }
    }

    public var id: UUID
    public var slug: String
    /// The tenant's file, as applied: its time zone, its modules' settings.
    public var file: TenantFile
    /// The tenant's people in the seed's order.
    public var people: [Person]
    /// The seed (`--seed`): a module that draws anything draws it from this, so that the same seed
    /// gives the same data.
    public var seed: UInt64
    /// This module's settings from `--set <module>.<key>=<value>`, by key; only keys the module
    /// declares in ``StorykeepModule/seedSettings`` reach it.
    public var settings: [String: String]
    /// The app role's pool. A module writes its rows through row-level security like any request,
    /// in the context its policies ask for (``AccountContext/tenantOperator(tenantID:)`` for an
    /// admin's rows, ``AccountContext/person(tenantID:personID:role:)`` for a person's own).
    public var pool: PostgresPool

    public init(
        id: UUID, slug: String, file: TenantFile, people: [Person], seed: UInt64, settings: [String: String], pool: PostgresPool
    ) {
        self.id = id
        self.slug = slug
        self.file = file
        self.people = people
        self.seed = seed
        self.settings = settings
        self.pool = pool
    }

    /// The people with `role`, in order.
    public func people(_ role: PersonRole) -> [Person] { people.filter { $0.role == role } }

    /// The setting `key` as a number in `range`, `fallback` when not given; a value that is not
    /// one is refused, naming the setting.
    public func setting<Number: LosslessStringConvertible & Comparable>(
        _ key: String, in range: ClosedRange<Number>, module: String, default fallback: Number
    ) throws -> Number {
        guard let text = settings[key] else { return fallback }
        guard let value = Number(text), range.contains(value) else {
            throw ModuleSeedError("--set \(module).\(key): a number from \(range.lowerBound) to \(range.upperBound), not \(text)")
        }
        return value
    }
}

/// Why a module could not seed.
public struct ModuleSeedError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
