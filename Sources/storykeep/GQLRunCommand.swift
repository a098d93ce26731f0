import ArgumentParser
import GraphQL

/// `storykeep gql run`: executes an operation with the default resolvers over a JSON root value
/// and prints the response JSON ("errors" first, no "data" when the request failed before
/// execution).
///
/// The default resolvers read the field's name from the parent object; an object with a string
/// `__typename` names its concrete type; a field whose value is `{"__error": "message"}` raises
/// a field error with that message.
struct GQLRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Execute an operation over a JSON root value and print the response."
    )

    @Option(help: "An SDL file of the schema (repeat for several).")
    var schema: [String] = []

    @Option(help: "A JSON file: the root value (default: {}).")
    var root: String?

    @Option(help: "The GraphQL document's file.")
    var query: String

    @Option(help: "The variables, as a JSON object.")
    var variables: String?

    @Option(help: "The operation to run, when the document has several.")
    var operationName: String?

    func run() async throws {
        let schema = try GQLInput.schema(self.schema)
        let root = try GQLInput.json(file: self.root, default: .object([:]))
        let request = GraphQLRequest(
            query: try GQLInput.text(query), operationName: operationName, variables: try GQLInput.variables(variables))
        let response = await GraphQLService(schema: schema).execute(request, rootValue: root)
        print(response.json)
    }
}
