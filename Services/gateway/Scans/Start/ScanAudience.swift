import Foundation
import Hummingbird
import KiwiServiceSupport

/// Whom a scan or a refinement cooks for: the query parameter `for`, member ids of the caller's household, comma-separated
/// or repeated (`?for=a,b` or `?for=a&for=b`). Without it, a scan cooks for every member (docs/architecture.md,
/// "Households"); ``TableProfile`` checks the ids are members' (404 otherwise). A value that is not a list of ids is
/// 400.
enum ScanAudience {
    /// The member ids `request` names, each once in the order given; nil when it names none.
    static func members(of request: Request) throws -> [UUID]? {
        let values = request.uri.queryParameters.getAll("for")
        guard !values.isEmpty else { return nil }
        var members: [UUID] = []
        for text in values.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            guard let member = UUID(uuidString: text.trimmingCharacters(in: .whitespaces)) else {
                throw APIError.badRequest("for must list member ids of your household, separated by commas.")
            }
            if !members.contains(member) { members.append(member) }
        }
        return members
    }
}
