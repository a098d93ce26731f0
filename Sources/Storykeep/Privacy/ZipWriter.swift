import Foundation

/// Writes a ZIP archive (PKWARE APPNOTE 6.3) of stored, uncompressed files, each with its CRC-32:
/// what every phone and computer opens. The files of a data export are JSON, which is small, and
/// media, which is compressed already, so compressing again would gain little.
///
/// Without ZIP64: at most 65,535 files and 4 GiB in all (``ZipWriter/TooLarge`` beyond). Names
/// are UTF-8 (general purpose bit 11).
struct ZipWriter {
    /// The archive would need ZIP64.
    struct TooLarge: Error, CustomStringConvertible {
        var description: String { "the archive would be larger than 4 GiB or hold more than 65,535 files" }
    }

    private(set) var bytes: [UInt8] = []
    private var central: [UInt8] = []
    private var count = 0
    private let dosTime: UInt16
    private let dosDate: UInt16

    /// An archive whose files are dated `date` (in UTC, to the two seconds DOS time keeps).
    init(date: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        dosTime = UInt16(c.hour! << 11 | c.minute! << 5 | c.second! / 2)
        dosDate = UInt16(max(0, c.year! - 1980) << 9 | c.month! << 5 | c.day!)
    }

    /// Adds the file `path` (forward slashes) holding `content`.
    mutating func add(_ path: String, _ content: [UInt8]) throws {
        let name = Array(path.utf8)
        let offset = bytes.count
        guard count < 0xFFFF, content.count < 0xFFFF_FFFF, offset + 30 + name.count + content.count < 0xFFFF_FFFF else {
            throw TooLarge()
        }
        let crc = CRC32.checksum(content)
        // Local file header.
        bytes.append(uint32: 0x0403_4B50)
        appendCommon(to: &bytes, name: name, crc: crc, size: content.count)
        bytes += name
        bytes += content
        // Its central directory record.
        central.append(uint32: 0x0201_4B50)
        central.append(uint16: 20)  // made by: version 2.0
        appendCommon(to: &central, name: name, crc: crc, size: content.count)
        central.append(uint16: 0)  // comment length
        central.append(uint16: 0)  // disk number
        central.append(uint16: 0)  // internal attributes
        central.append(uint32: 0)  // external attributes
        central.append(uint32: UInt32(offset))
        central += name
        count += 1
    }

    /// The archive: the files, the central directory and its end record.
    mutating func finish() throws -> [UInt8] {
        let offset = bytes.count
        guard offset + central.count < 0xFFFF_FFFF else { throw TooLarge() }
        bytes += central
        bytes.append(uint32: 0x0605_4B50)
        bytes.append(uint16: 0)  // this disk
        bytes.append(uint16: 0)  // the disk the directory starts on
        bytes.append(uint16: UInt16(count))
        bytes.append(uint16: UInt16(count))
        bytes.append(uint32: UInt32(central.count))
        bytes.append(uint32: UInt32(offset))
        bytes.append(uint16: 0)  // comment length
        return bytes
    }

    /// From "version needed" to "extra field length": the same in both headers.
    private func appendCommon(to out: inout [UInt8], name: [UInt8], crc: UInt32, size: Int) {
        out.append(uint16: 20)  // version needed: 2.0
        out.append(uint16: 0x0800)  // flags: UTF-8 names
        out.append(uint16: 0)  // method: stored
        out.append(uint16: dosTime)
        out.append(uint16: dosDate)
        out.append(uint32: crc)
        out.append(uint32: UInt32(size))  // compressed size
        out.append(uint32: UInt32(size))  // uncompressed size
        out.append(uint16: UInt16(name.count))
        out.append(uint16: 0)  // extra field length
    }
}

/// CRC-32 (ISO 3309, the polynomial 0xEDB88320 reflected), as ZIP and PNG use it.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        bytes.withUnsafeBufferPointer { buffer in
            for byte in buffer { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }
}

extension [UInt8] {
    /// Little-endian, as ZIP stores numbers.
    fileprivate mutating func append(uint16 value: UInt16) {
        append(UInt8(value & 0xFF))
        append(UInt8(value >> 8))
    }

    fileprivate mutating func append(uint32 value: UInt32) {
        append(uint16: UInt16(value & 0xFFFF))
        append(uint16: UInt16(value >> 16))
    }
}
