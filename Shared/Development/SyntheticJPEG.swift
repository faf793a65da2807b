/// Generates valid baseline JPEGs of about a requested size, for tests, benchmarks and load tests that need
/// many distinct photos. The picture is grey noise (every 8×8 block gets random coefficients), which any
/// decoder accepts; the same seed always gives the same bytes.
///
/// Instead of the standard Huffman tables it declares two small ones of its own with fixed 4-bit codes,
/// which the format allows and which keeps the encoder a few lines long.
public enum SyntheticJPEG {
    private static let blocksPerRow = 32

    /// A JPEG of at least `size` bytes (rounded up to a whole row of blocks, about 2 KiB), 256 pixels wide.
    public static func make(size: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        var scan = BitWriter()
        var rows = 0
        let headerSize = 160
        repeat {
            for _ in 0..<blocksPerRow { encodeBlock(into: &scan, random: &random) }
            rows += 1
        } while scan.bytes.count + headerSize < size && rows < 8191
        scan.flush()

        var jpeg: [UInt8] = [0xFF, 0xD8]
        jpeg += segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        jpeg += segment(0xDB, [0] + Array(repeating: 1, count: 64))
        let (width, height) = (blocksPerRow * 8, rows * 8)
        jpeg += segment(0xC0, [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0])
        // DC table 0: categories 0…11, AC table 0: end-of-block and run 0 with sizes 1…10, all with 4-bit codes.
        jpeg += segment(0xC4, [0x00] + lengths(fourBitCodes: 12) + Array(0...11))
        jpeg += segment(0xC4, [0x10] + lengths(fourBitCodes: 11) + Array(0...10))
        jpeg += segment(0xDA, [1, 1, 0x00, 0, 63, 0])
        jpeg += scan.bytes
        jpeg += [0xFF, 0xD9]
        return jpeg
    }

    /// One block: a small DC difference and 63 non-zero AC coefficients of 1 to 6 bits (no end-of-block needed).
    private static func encodeBlock(into writer: inout BitWriter, random: inout SplitMix64) {
        let dc = Int(random.next() % 15) - 7
        writeCoefficient(dc, into: &writer)
        for _ in 1...63 {
            let size = Int(1 + random.next() % 6)
            let magnitude = (1 << (size - 1)) + Int(random.next() % UInt64(1 << (size - 1)))
            writeCoefficient(random.next() & 1 == 0 ? magnitude : -magnitude, into: &writer)
        }
    }

    /// The symbol (its size category, which is also its 4-bit code here), then the value's bits, as JPEG codes them.
    private static func writeCoefficient(_ value: Int, into writer: inout BitWriter) {
        let size = value == 0 ? 0 : (Int.bitWidth - abs(value).leadingZeroBitCount)
        writer.write(UInt32(size), bits: 4)
        if size > 0 { writer.write(UInt32(truncatingIfNeeded: value > 0 ? value : value - 1) & ((1 << size) - 1), bits: size) }
    }

    private static func lengths(fourBitCodes count: UInt8) -> [UInt8] {
        [0, 0, 0, count] + Array(repeating: 0, count: 12)
    }

    private static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
}

/// Packs bits most significant first, stuffing a zero byte after every `FF` as entropy-coded data requires.
private struct BitWriter {
    var bytes: [UInt8] = []
    private var accumulator: UInt32 = 0
    private var count = 0

    mutating func write(_ value: UInt32, bits: Int) {
        for shift in stride(from: bits - 1, through: 0, by: -1) {
            accumulator = accumulator << 1 | (value >> UInt32(shift) & 1)
            count += 1
            if count == 8 { emit() }
        }
    }

    /// Pads the last byte with one bits.
    mutating func flush() {
        while count != 0 { write(1, bits: 1) }
    }

    private mutating func emit() {
        let byte = UInt8(accumulator & 0xFF)
        bytes.append(byte)
        if byte == 0xFF { bytes.append(0x00) }
        accumulator = 0
        count = 0
    }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64), for bytes that need to look random, not be
/// unpredictable: each draw of the system's generator is a system call.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
