import Foundation
import StorykeepCore

/// What `storykeep tenant apply` did to one tenant.
public enum TenantChange: Sendable, Equatable, CustomStringConvertible {
    case created(slug: String)
    /// `keys` are the dotted keys of the tenant file whose values changed (`lockout.freeAttempts`;
    /// a list is one key).
    case updated(slug: String, keys: [String])
    case unchanged(slug: String)

    public var slug: String {
        switch self {
        case .created(let slug), .updated(let slug, _), .unchanged(let slug): slug
        }
    }

    public var description: String {
        switch self {
        case .created(let slug): "created   \(slug)"
        case .updated(let slug, let keys): "updated   \(slug): \(keys.joined(separator: ", "))"
        case .unchanged(let slug): "unchanged \(slug)"
        }
    }
}

extension TenantFile {
    /// The dotted keys whose values differ between two tenant files, given as JSON (the stored
    /// `tenants.config` and the new file); sorted. Mappings are compared key by key, lists and
    /// scalars as wholes.
    static func changedKeys(from old: Data, to new: Data) throws -> [String] {
        let before = flatten(try JSONSerialization.jsonObject(with: old, options: [.fragmentsAllowed]))
        let after = flatten(try JSONSerialization.jsonObject(with: new, options: [.fragmentsAllowed]))
        let keys = Set(before.keys).union(after.keys)
        return keys.filter { before[$0] != after[$0] }.sorted()
    }

    /// Each leaf of a JSON value by its dotted key, as canonical JSON text.
    private static func flatten(_ value: Any, prefix: String = "") -> [String: Data] {
        if let object = value as? [String: Any] {
            var leaves: [String: Data] = [:]
            for (key, child) in object {
                leaves.merge(flatten(child, prefix: prefix.isEmpty ? key : prefix + "." + key)) { $1 }
            }
            return leaves
        }
        let canonical = (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])) ?? Data()
        return [prefix: canonical]
    }
}
