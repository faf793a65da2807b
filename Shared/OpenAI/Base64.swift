import NIOCore

/// Standard base64 (RFC 4648 §4, padded), written straight into the request body: a photo is encoded once per
/// request into its final place, instead of into a buffer of its own that is then copied.
public enum Base64 {
    /// The length of the base64 of `count` bytes.
    public static func encodedCount(_ count: Int) -> Int { (count + 2) / 3 * 4 }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Encodes `input` into `output`, which holds exactly ``encodedCount(_:)`` bytes.
    public static func encode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count == encodedCount(input.count))
        alphabet.withUnsafeBufferPointer { alphabet in
            func character(_ sextet: UInt32) -> UInt8 { alphabet[Int(sextet & 0x3F)] }
            var (read, written) = (0, 0)
            while read + 3 <= input.count {
                let group = UInt32(input[read]) << 16 | UInt32(input[read + 1]) << 8 | UInt32(input[read + 2])
                output[written] = character(group >> 18)
                output[written + 1] = character(group >> 12)
                output[written + 2] = character(group >> 6)
                output[written + 3] = character(group)
                read += 3
                written += 4
            }
            let left = input.count - read
            guard left > 0 else { return }
            let group = UInt32(input[read]) << 16 | (left == 2 ? UInt32(input[read + 1]) << 8 : 0)
            output[written] = character(group >> 18)
            output[written + 1] = character(group >> 12)
            output[written + 2] = left == 2 ? character(group >> 6) : UInt8(ascii: "=")
            output[written + 3] = UInt8(ascii: "=")
        }
    }
}

extension ByteBuffer {
    /// Writes `bytes` in base64 (``Base64``), growing the buffer once if it must.
    public mutating func writeBase64(_ bytes: [UInt8]) {
        let count = Base64.encodedCount(bytes.count)
        bytes.withUnsafeBytes { input in
            _ = writeWithUnsafeMutableBytes(minimumWritableBytes: count) { output in
                Base64.encode(input, into: UnsafeMutableRawBufferPointer(rebasing: output[..<count]))
                return count
            }
        }
    }
}
