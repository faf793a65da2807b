import Crypto
import Foundation
import KiwiModels
import NIOCore

/// One `list` event of a shopping list's stream (`GET /v1/shopping-list/events`): the whole list, and an id that names
/// its state, so that a client that has seen it is not sent it again.
struct ShoppingListEvent {
    /// The first 16 bytes of a SHA-256 of the kitchen and the list's JSON, in hex: the same list of the same kitchen
    /// has the same id on every gateway, and another kitchen's never matches.
    let id: String
    /// The list's JSON, which without pretty printing has no line breaks.
    let json: String

    init(kitchen: UUID, list: ShoppingList) {
        // Keys sorted: the encoder's order may differ from one encoding to the next, and the id must not.
        let encoder = KiwiJSON.encoder()
        encoder.outputFormatting.insert(.sortedKeys)
        // Encoding a list cannot fail: it is a plain value.
        json = String(decoding: try! encoder.encode(list), as: UTF8.self)
        let digest = SHA256.hash(data: Data("\(kitchen.uuidString.lowercased())\n\(json)".utf8))
        id = digest.prefix(16).hexEncodedString
    }

    /// `id`, `event` and one `data` line, then the blank line that ends an event.
    var buffer: ByteBuffer {
        ByteBuffer(string: "id: \(id)\nevent: list\ndata: \(json)\n\n")
    }
}
