import Foundation
import GraphQL

// What libFuzzer runs on each input (`LLVMFuzzerTestOneInput`), over the engine's parser, printer
// and validator, built with `-sanitize=fuzzer,address`. Anything that traps (a Swift runtime
// check, an index out of range, an overflow), an address error or a broken property below is a
// crash that libFuzzer reports with the input that caused it.
//
// The properties, for every input:
// - parsing (with the server's token limit) ends with a document or a syntax error with a
//   location; the same bytes parsed as a value, a constant value and a type do too;
// - a document that parses prints to text that parses and prints the same again;
// - the document validates against Storykeep's own schema (Schema/*.graphql) with the server's
//   abuse limits, and against the validation corpus's schema with the engine's default limits,
//   ending with a list of errors (each with a message), never a crash.

/// The folder of this checkout, from this file's place in it (Fuzz/Sources/FuzzGraphQL/).
let checkout = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Builds a schema from SDL files, or stops the run: a fuzz run without its schema finds nothing.
func schema(from files: [URL]) -> GraphQLSchema {
    do {
        let sources = try files.map { Source(try String(contentsOf: $0, encoding: .utf8), name: $0.lastPathComponent) }
        return try buildSchema(sources)
    } catch {
        fatalError("the fuzz target's schema does not build: \(error)")
    }
}

/// Storykeep's schema: the core's SDL first, then every module's, as the server composes them
/// for a tenant with every module on (the resolvers do not matter to validation).
let storykeepSchema: GraphQLSchema = {
    let folder = checkout.appendingPathComponent("Schema")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    let modules = names.filter { $0.hasSuffix(".graphql") && $0 != "core.graphql" }.sorted()
    return schema(from: (["core.graphql"] + modules).map { folder.appendingPathComponent($0) })
}()

/// The schema the validation corpus's cases are written against (Tests/GraphQLTests/Corpus).
let corpusSchema = schema(from: [checkout.appendingPathComponent("Tests/GraphQLTests/Corpus/validation/schema.graphql")])

/// The server's limits (`TenantSchemas.maxTokens` and `TenantSchemas.validationLimits`).
let serverParseOptions = ParseOptions(maxTokens: 5_000)
let serverValidationOptions = ValidationOptions(limits: ValidationLimits(maxCost: 18_000, variableListSize: 100))

/// Stops the run with what broke; libFuzzer saves the input.
func broken(_ property: String, _ bytes: [UInt8]) -> Never {
    fatalError("\(property) for input \(String(decoding: bytes, as: UTF8.self).debugDescription)")
}

/// A syntax error must say so and point at a place in the source.
func checkSyntaxError(_ error: GraphQLError, _ bytes: [UInt8]) {
    guard error.message.hasPrefix("Syntax Error: "), error.locations.count == 1,
        error.locations[0].line >= 1, error.locations[0].column >= 1
    else { broken("a parse error without a syntax error's message and location (\(error.message))", bytes) }
}

/// Validation must end with errors that each have a message.
func checkValidation(_ errors: [GraphQLError], _ bytes: [UInt8]) {
    if errors.contains(where: { $0.message.isEmpty }) { broken("a validation error without a message", bytes) }
}

/// One input: 0 when every property holds (a broken one stops the run).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : count))
    let source = Source(bytes: bytes)
    do { _ = try parseValue(source) } catch { checkSyntaxError(error, bytes) }
    do { _ = try parseConstValue(source) } catch { checkSyntaxError(error, bytes) }
    do { _ = try parseType(source) } catch { checkSyntaxError(error, bytes) }

    let document: Document
    do {
        document = try parse(source, options: serverParseOptions)
    } catch {
        checkSyntaxError(error, bytes)
        return 0
    }
    let printed = print(document)
    guard let reparsed = try? parse(Source(printed)) else { broken("the printed document does not parse", bytes) }
    if print(reparsed) != printed { broken("printing is not stable", bytes) }

    checkValidation(validate(schema: storykeepSchema, document: document, source: source, options: serverValidationOptions), bytes)
    checkValidation(validate(schema: corpusSchema, document: document, source: source), bytes)
    return 0
}
