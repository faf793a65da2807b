import Crypto
import Foundation
import Hummingbird
import KiwiModels
import KiwiScans
import KiwiServiceSupport

/// The body of `POST /v1/scans/{id}/refinements` (docs/architecture.md, "Refinements"): `{"ingredients": [names]}`,
/// the ingredients the person confirmed or edited. Each name is trimmed of surrounding white space and must then be 1
/// to 100 characters without control characters, as the model's ingredient names are (``ScanResponseContract``); 1 to
/// 40 names, those equal once lower-cased kept once. A body that is not such a JSON object is 400 `bad_request`; names
/// that break a rule are 422 `invalid_ingredients`, the message naming each with its JSON path.
enum RefinementRequest {
    /// The most names a refinement takes.
    static let mostIngredients = 40
    /// A name's length in characters, once trimmed.
    static let nameLength = 1...100
    /// Forty names of 100 characters, escaped, with room to spare.
    static let largestBody = 32 * 1024

    private struct Body: Decodable {
        var ingredients: [String]
    }

    /// The refinement of scan `parentID` the request asks for.
    static func read(from request: Request, refining parentID: UUID) async throws -> QueuedScan.Refinement {
        let body = try await request.decodedBody(as: Body.self, largest: largestBody, example: #"{"ingredients": ["Greek yoghurt", "leeks"]}"#)
        return QueuedScan.Refinement(parentID: parentID, ingredients: try names(body.ingredients))
    }

    /// `names` trimmed, checked and without repeats; a 422 naming every rule broken.
    static func names(_ names: [String]) throws -> [String] {
        var problems: [String] = []
        if !(1...mostIngredients).contains(names.count) {
            problems.append("$.ingredients: must hold 1 to \(mostIngredients) names, found \(names.count)")
        }
        var kept: [String] = []
        var seen: Set<String> = []
        for (index, name) in names.enumerated() {
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            if !nameLength.contains(trimmed.count) {
                problems.append("$.ingredients[\(index)]: must be 1 to 100 characters long once trimmed, found \(trimmed.count)")
            } else if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                problems.append("$.ingredients[\(index)]: must not hold control characters such as line breaks")
            } else if seen.insert(trimmed.lowercased()).inserted {
                kept.append(trimmed)
            }
        }
        guard problems.isEmpty else {
            throw APIError(.unprocessableContent, .invalidIngredients, "The ingredients break these rules: \(problems.joined(separator: "; ")).")
        }
        return kept
    }

    /// What an `Idempotency-Key` of a refinement is checked against: a SHA-256 of the parent and the names, which no
    /// photo's digest can be.
    static func digest(of refinement: QueuedScan.Refinement) -> Data {
        var hasher = SHA256()
        hasher.update(data: Data("kiwi-refinement-v1:\(refinement.parentID.uuidString.lowercased())".utf8))
        for name in refinement.ingredients { hasher.update(data: Data("\n\(name)".utf8)) }
        return Data(hasher.finalize())
    }
}
