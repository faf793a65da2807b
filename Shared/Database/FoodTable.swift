import Foundation

extension KiwiSchema {
    /// The nutrition table, `fdc-foods.tsv` (derived by deploy/local/derive-nutrition-table.py; its `#` lines say from
    /// what). A resource copied beside the binaries (the Dockerfile copies every bundle): SwiftPM's `embedInCode` makes
    /// the 0.7 MB an array literal that took the compiler over 12 minutes and 3.6 GB.
    /// Migration 16 loads it into `foods`; the tests and the bench read it with `FoodTable(tsv:)`.
    public static let foodTable: String = {
        guard let url = Bundle.module.url(forResource: "fdc-foods", withExtension: "tsv"), let text = try? String(contentsOf: url, encoding: .utf8)
        else { preconditionFailure("fdc-foods.tsv is missing from KiwiDatabase's resources") }
        return text
    }()
}
