import Foundation
import KiwiScans
import Testing

/// The seal of a scan's photos (docs/architecture.md, "Photos at rest: crypto-shredding").
@Suite("Photo keys")
struct PhotoKeyTests {
    let key = PhotoKey()
    let scanID = UUID()
    let photo: [UInt8] = [0xFF, 0xD8] + Array(repeating: 0x42, count: 300) + [0xFF, 0xD9]

    @Test("a sealed body opens with its scan's key and id, and is the nonce, the ciphertext and the tag")
    func roundTrip() throws {
        let body = try key.seal(photo, for: scanID)
        #expect(body.count == photo.count + 28)
        #expect(try key.open(body, for: scanID) == photo)
    }

    @Test("a sealed body does not open with another key")
    func anotherKey() throws {
        let body = try key.seal(photo, for: scanID)
        #expect(throws: PhotoKey.Unopenable.self) { try PhotoKey().open(body, for: scanID) }
    }

    @Test("a sealed body does not open as another scan's job")
    func anotherScan() throws {
        let body = try key.seal(photo, for: scanID)
        #expect(throws: PhotoKey.Unopenable.self) { try key.open(body, for: UUID()) }
    }

    @Test("a sealed body changed in one byte, of its nonce, its ciphertext or its tag, does not open", arguments: [0, 11, 12, 150, 315, 331])
    func tampered(_ index: Int) throws {
        var body = try key.seal(photo, for: scanID)
        body[index] ^= 0x01
        #expect(throws: PhotoKey.Unopenable.self) { try key.open(body, for: scanID) }
    }

    @Test("a body too short to be sealed, or the photo in the clear, does not open")
    func notSealed() {
        #expect(throws: PhotoKey.Unopenable.self) { try key.open([], for: scanID) }
        #expect(throws: PhotoKey.Unopenable.self) { try key.open(Array(photo.prefix(27)), for: scanID) }
        #expect(throws: PhotoKey.Unopenable.self) { try key.open(photo, for: scanID) }
    }

    @Test("a key is kept as its 32 bytes and read back from them; other sizes are no key")
    func storedBytes() {
        #expect(key.bytes.count == 32)
        #expect(PhotoKey(key.bytes) == key)
        #expect(PhotoKey(Data(count: 31)) == nil && PhotoKey(Data(count: 33)) == nil)
    }

    @Test("each key is fresh, and none prints its bytes")
    func freshAndRedacted() {
        #expect(PhotoKey() != key)
        let hex = key.bytes.map { String(format: "%02x", $0) }.joined()
        #expect(!"\(key)".contains(hex.prefix(8)) && !String(reflecting: key).contains(hex.prefix(8)))
    }
}
