/// How a field's value is found. (Placeholder signature: the execution engineer owns this file
/// and may reshape it; see Execution/.)
public typealias FieldResolver = @Sendable (_ source: (any Sendable)?, _ arguments: GraphQLObject) async throws -> (any Sendable)?

/// Names the concrete object type of a value of an abstract type.
public typealias TypeResolver = @Sendable (_ value: any Sendable) throws -> String?
