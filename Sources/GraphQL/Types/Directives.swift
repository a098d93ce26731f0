/// The directives the specification defines, as graphql-js 17 (and graphql-core 3.3) define them.

/// The reason `@deprecated` gives when none is written.
public let defaultDeprecationReason = "No longer supported"

public let GraphQLIncludeDirective: GraphQLDirective = {
    let directive = GraphQLDirective(
        name: "include",
        description: "Directs the executor to include this field or fragment only when the `if` argument is true.",
        locations: [.field, .fragmentSpread, .inlineFragment])
    directive.arguments.insert(
        GraphQLArgument(name: "if", type: .nonNull(.named(.scalar(GraphQLBoolean))), description: "Included when true."),
        named: "if")
    return directive
}()

public let GraphQLSkipDirective: GraphQLDirective = {
    let directive = GraphQLDirective(
        name: "skip",
        description: "Directs the executor to skip this field or fragment when the `if` argument is true.",
        locations: [.field, .fragmentSpread, .inlineFragment])
    directive.arguments.insert(
        GraphQLArgument(name: "if", type: .nonNull(.named(.scalar(GraphQLBoolean))), description: "Skipped when true."),
        named: "if")
    return directive
}()

public let GraphQLDeprecatedDirective: GraphQLDirective = {
    let directive = GraphQLDirective(
        name: "deprecated",
        description: "Marks an element of a GraphQL schema as no longer supported.",
        locations: [.fieldDefinition, .argumentDefinition, .inputFieldDefinition, .enumValue, .directiveDefinition])
    directive.arguments.insert(
        GraphQLArgument(
            name: "reason", type: .nonNull(.named(.scalar(GraphQLString))),
            description: "Explains why this element was deprecated, usually also including a suggestion for how "
                + "to access supported similar data. Formatted using the Markdown syntax, as specified by "
                + "[CommonMark](https://commonmark.org/).",
            defaultValue: .string(defaultDeprecationReason)),
        named: "reason")
    return directive
}()

public let GraphQLSpecifiedByDirective: GraphQLDirective = {
    let directive = GraphQLDirective(
        name: "specifiedBy",
        description: "Exposes a URL that specifies the behavior of this scalar.",
        locations: [.scalar])
    directive.arguments.insert(
        GraphQLArgument(
            name: "url", type: .nonNull(.named(.scalar(GraphQLString))),
            description: "The URL that specifies the behavior of this scalar."),
        named: "url")
    return directive
}()

public let GraphQLOneOfDirective = GraphQLDirective(
    name: "oneOf",
    description: "Indicates exactly one field must be supplied and this field must not be `null`.",
    locations: [.inputObject])

/// The directives every schema has, in graphql-js's order.
public let specifiedDirectives: [GraphQLDirective] = [
    GraphQLIncludeDirective, GraphQLSkipDirective, GraphQLDeprecatedDirective, GraphQLSpecifiedByDirective,
    GraphQLOneOfDirective,
]

/// Whether a directive is one of the specified ones (by name, as graphql-js checks).
public func isSpecifiedDirective(_ directive: GraphQLDirective) -> Bool {
    specifiedDirectives.contains { $0.name == directive.name }
}
