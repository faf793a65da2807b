import Foundation
import Testing

/// A file from this target's Fixtures folder.
func fixture(_ name: String) throws -> Data {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"), "missing fixture \(name)")
    return try Data(contentsOf: url)
}
