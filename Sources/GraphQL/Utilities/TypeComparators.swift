/// graphql-js's type comparators, used by schema validation and document validation.

/// Whether two types are the same: the same wrappers around the same named type.
public func isEqualType(_ a: GraphQLType, _ b: GraphQLType) -> Bool {
    switch (a, b) {
    case (.named(let a), .named(let b)): a.name == b.name
    case (.list(let a), .list(let b)), (.nonNull(let a), .nonNull(let b)): isEqualType(a, b)
    default: false
    }
}

/// Whether a value of `maybeSubType` is always a valid value of `superType` (covariance):
/// non-null fits nullable, and an object or interface fits an abstract type it belongs to.
public func isTypeSubTypeOf(_ schema: GraphQLSchema, _ maybeSubType: GraphQLType, _ superType: GraphQLType) -> Bool {
    switch (maybeSubType, superType) {
    case (.named(let sub), .named(let sup)):
        if sub.name == sup.name { return true }
        guard sup.isAbstract else { return false }
        switch sub {
        case .object, .interface: return schema.isSubType(sup, sub)
        default: return false
        }
    case (.nonNull(let sub), .nonNull(let sup)): return isTypeSubTypeOf(schema, sub, sup)
    case (_, .nonNull): return false
    case (.nonNull(let sub), _): return isTypeSubTypeOf(schema, sub, superType)
    case (.list(let sub), .list(let sup)): return isTypeSubTypeOf(schema, sub, sup)
    case (_, .list), (.list, _): return false
    }
}

/// Whether two composite types can describe the same object: the same type, or abstract types
/// with a possible type in common, or an object type that belongs to the abstract one.
public func doTypesOverlap(_ schema: GraphQLSchema, _ a: GraphQLNamedType, _ b: GraphQLNamedType) -> Bool {
    if a.name == b.name { return true }
    if a.isAbstract {
        if b.isAbstract {
            return schema.possibleTypes(of: a).contains { schema.isSubType(b, .object($0)) }
        }
        return schema.isSubType(a, b)
    }
    if b.isAbstract { return schema.isSubType(b, a) }
    return false
}
