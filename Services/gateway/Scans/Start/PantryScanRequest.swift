import Crypto
import Foundation
import Hummingbird
import KiwiModels
import KiwiServiceSupport

/// A scan from the pantry rather than a photo (docs/architecture.md, "Scans from the pantry"): `POST /v1/scans` with
/// the JSON body `{"source": "pantry"}`. The model is offered the kitchen's ``mostItems`` items soonest to use, in that
/// order; a pantry with none is 409 `pantry_empty`, before anything is charged. Any other body is 400 `bad_request`,
/// members besides `source` included.
struct PantryScanRequest: Sendable {
    let pantry: any PantryStore
    let households: any HouseholdStore

    /// The most items offered: as many as an answer may list as ingredients (``RefinementRequest/mostIngredients``).
    static let mostItems = RefinementRequest.mostIngredients
    /// What an `Idempotency-Key` of a pantry scan is checked against: the same for every one, as the request is, so
    /// that a retry finds its scan even when the pantry changed in between; no photo's digest is this.
    static let digest = Data(SHA256.hash(data: Data("kiwi-pantry-scan-v1".utf8)))
    static let example = #"{"source": "pantry"}"#

    /// Whether `request` asks for a pantry scan rather than uploading photos: its body is JSON.
    static func isPantryScan(_ request: Request) -> Bool {
        request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }

    private struct Body: Decodable {
        enum Source: String, Decodable { case pantry }
        var source: Source

        init(from decoder: any Decoder) throws {
            let body = try decoder.container(keyedBy: BodyMember.self)
            try body.refuseMembers(otherThan: ["source"])
            source = try body.decode(Source.self, forKey: BodyMember(stringValue: "source"))
        }
    }

    /// The scan's input: the body checked, then the caller's kitchen's items soonest to use first.
    func input(of request: Request, for userID: UUID) async throws -> ScanInput {
        _ = try await request.decodedBody(as: Body.self, largest: 1024, example: Self.example)
        let items = try await pantry.offered(in: try await households.kitchen(of: userID))
        guard !items.isEmpty else { throw Empty() }
        return ScanInput(pantry: items)
    }

    /// The pantry has no items: ``empty`` to the client, unless the request is a retry of a scan (``ScanCoordinator``).
    struct Empty: Error {}

    static let empty = APIError(
        .conflict,
        .pantryEmpty,
        "The pantry is empty; add what you have (POST /v1/pantry/items), or scan your fridge, then cook from it."
    )
}

extension PantryStore {
    /// The kitchen's items a scan from the pantry is offered (a pantry scan, a plan, a planned meal's recipe or
    /// replacement): the ``PantryScanRequest/mostItems`` soonest to use, in that order.
    func offered(in kitchen: Kitchen) async throws -> [OfferedPantryItem] {
        try await items(of: kitchen, after: nil, limit: PantryScanRequest.mostItems).items.map(OfferedPantryItem.init)
    }
}
