import CLibPQ
import Foundation

/// The result of one statement: its columns, its rows (in binary format) and how many rows it
/// affected. Values are read straight from libpq's result, which is freed with the last copy.
public struct PostgresRows: RandomAccessCollection, Sendable {
    /// A column of the result: its name and type.
    public struct Column: Sendable, Hashable {
        public let name: String
        public let type: PostgresDataType
    }

    let storage: ResultStorage

    public var columns: [Column] { storage.columns }
    /// Rows inserted, updated, deleted, copied or selected, from the command tag.
    public var affectedRows: Int { storage.affectedRows }
    /// The command tag, e.g. `INSERT 0 1`, `UPDATE 3`, `SELECT 10`.
    public var commandTag: String { storage.commandTag }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.rowCount }
    public subscript(index: Int) -> PostgresRow {
        precondition(index >= 0 && index < storage.rowCount, "row index out of range")
        return PostgresRow(storage: storage, index: index)
    }
}

/// One row of a result. Decode columns by position or by name:
/// `try row.decode(Int.self, at: 0)`, `try row.decode(String?.self, column: "email")`.
public struct PostgresRow: Sendable {
    let storage: ResultStorage
    let index: Int

    /// Decodes column `column` (0-based) as `T`; NULL decodes only into an Optional.
    public func decode<T: PostgresDecodable>(_: T.Type = T.self, at column: Int) throws -> T {
        guard column >= 0 && column < storage.columns.count else {
            throw PostgresError(
                kind: .decoding, message: "column \(column) out of range (\(storage.columns.count) columns)")
        }
        return try storage.decode(T.self, row: index, column: column)
    }

    /// Decodes the column named `name` as `T`.
    public func decode<T: PostgresDecodable>(_: T.Type = T.self, column name: String) throws -> T {
        guard let column = storage.columnIndex[name] else {
            throw PostgresError(kind: .decoding, message: "no column named \(name)")
        }
        return try storage.decode(T.self, row: index, column: column)
    }

    /// Decodes a `json`/`jsonb` column into a `Decodable` Swift value.
    public func decodeJSON<T: Decodable & Sendable>(_: T.Type = T.self, at column: Int) throws -> T {
        try decode(PostgresJSON<T>.self, at: column).value
    }

    /// Decodes a `json`/`jsonb` column named `name` into a `Decodable` Swift value.
    public func decodeJSON<T: Decodable & Sendable>(_: T.Type = T.self, column name: String) throws -> T {
        try decode(PostgresJSON<T>.self, column: name).value
    }

    /// Whether column `column` is NULL.
    public func isNull(at column: Int) -> Bool { PQgetisnull(storage.result, Int32(index), Int32(column)) == 1 }
}

/// Owns a `PGresult`. libpq results are read-only once made and independent of their connection,
/// so they may be read from any thread.
final class ResultStorage: @unchecked Sendable {
    let result: OpaquePointer
    let columns: [PostgresRows.Column]
    let columnIndex: [String: Int]
    let rowCount: Int
    let affectedRows: Int
    let commandTag: String

    init(_ result: OpaquePointer) {
        self.result = result
        let count = Int(PQnfields(result))
        var columns: [PostgresRows.Column] = []
        var index: [String: Int] = [:]
        for column in 0..<count {
            let name = String(cString: PQfname(result, Int32(column)))
            columns.append(.init(name: name, type: PostgresDataType(oid: PQftype(result, Int32(column)))))
            if index[name] == nil { index[name] = column }
        }
        self.columns = columns
        columnIndex = index
        rowCount = Int(PQntuples(result))
        affectedRows = Int(String(cString: PQcmdTuples(result))) ?? 0
        commandTag = String(cString: PQcmdStatus(result))
    }

    deinit { PQclear(result) }

    func decode<T: PostgresDecodable>(_: T.Type, row: Int, column: Int) throws -> T {
        do {
            if PQgetisnull(result, Int32(row), Int32(column)) == 1 { return try T.postgresDecodeNull() }
            let bytes = UnsafeRawBufferPointer(
                start: PQgetvalue(result, Int32(row), Int32(column)),
                count: Int(PQgetlength(result, Int32(row), Int32(column))))
            return try T.postgresDecode(PostgresValue(type: columns[column].type, bytes: bytes))
        } catch var error as PostgresError {
            error.columnName = columns[column].name
            error.message = "column \(columns[column].name): " + error.message
            throw error
        }
    }
}
