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

    @OptionGroup var options: GQLOperationOptions

    func run() async throws {
        let operation = try options.read()
        let response = await GraphQLService(schema: operation.schema).execute(operation.request, rootValue: operation.root)
        print(response.json)
    }
}
