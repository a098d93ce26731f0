/// The introspection query code generators and GraphQL IDEs send (graphql-js's
/// `getIntrospectionQuery` with every option on): the schema's description and root types, every
/// type with its fields, arguments, input fields, interfaces, enum values and possible types,
/// deprecated ones included, `specifiedByURL`, `isOneOf`, and the directives with
/// `isRepeatable`. Type references are followed nine wrappers deep (`[[String!]!]!` needs five).
public let introspectionQuery: String = {
    var wrapped = "name kind"
    for _ in 0..<8 { wrapped = "name kind ofType { \(wrapped) }" }
    let typeReference = "kind name ofType { \(wrapped) }"
    return """
        query IntrospectionQuery {
          __schema {
            description
            queryType { name kind }
            mutationType { name kind }
            subscriptionType { name kind }
            types { ...FullType }
            directives {
              name description isRepeatable locations
              args(includeDeprecated: true) { ...InputValue }
            }
          }
        }

        fragment FullType on __Type {
          kind name description specifiedByURL isOneOf
          fields(includeDeprecated: true) {
            name description
            args(includeDeprecated: true) { ...InputValue }
            type { ...TypeRef }
            isDeprecated deprecationReason
          }
          inputFields(includeDeprecated: true) { ...InputValue }
          interfaces { ...TypeRef }
          enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
          possibleTypes { ...TypeRef }
        }

        fragment InputValue on __InputValue {
          name description type { ...TypeRef } defaultValue isDeprecated deprecationReason
        }

        fragment TypeRef on __Type { \(typeReference) }
        """
}()

/// What ``introspectionQuery`` answers for `schema`: `{"__schema": ...}`, the JSON code
/// generators (graphql-codegen, Apollo, Relay) read as a schema (graphql-js's
/// `introspectionFromSchema`).
public func introspectionFromSchema(_ schema: GraphQLSchema) async -> GraphQLValue {
    let source = Source(introspectionQuery, name: "IntrospectionQuery")
    // The query is a constant that parses, and every schema answers its introspection fields.
    let document = try! parse(source)
    let response = await execute(schema: schema, document: document, source: source)
    return response.data ?? .null
}
