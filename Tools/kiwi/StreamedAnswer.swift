import Foundation
import KiwiAPIClient
import KiwiModels

/// What a followed fridge scan shows on a terminal before its answer is whole: the ingredients once they are known,
/// then each recipe as soon as it is written and checked, each in the form the whole answer takes (``ScanPrinter``),
/// so that a result that agrees with them only adds what is missing. A `restart` withdraws what was shown: a note says
/// so, and the elements that stand come again under it. The result is the last word: one that does not begin with what
/// was shown is printed whole, under a note.
final class StreamedAnswer {
    /// Puts text on standard output (above the progress line, on a terminal).
    private let write: (String) -> Void
    /// The text printed since the last restart, every line ending with its newline.
    private var shown = ""

    init(writing write: @escaping (String) -> Void) {
        self.write = write
    }

    /// Prints `partial` (``ScanPartialEvent``), or for a restart a note that what follows replaces it.
    func show(_ partial: ScanPartial) throws {
        var lines: [String] = []
        switch partial {
        case .ingredients(let ingredients):
            guard !ingredients.isEmpty else { return }
            lines = ScanPrinter.ingredientLines(try Self.converted(ingredients))
        case .recipe(let index, let recipe):
            if shown.isEmpty { lines = ScanPrinter.ingredientLines([]) }
            lines += ScanPrinter.recipeLines(try Self.converted(recipe), number: index + 1)
        case .line(let index, let line):
            if shown.isEmpty { lines = [ScanPrinter.receiptHeading] }
            lines.append(ScanPrinter.receiptLine(try Self.converted(line), number: index + 1))
        case .meal(_, let meal):
            lines = ["\(meal.date) \(meal.meal.rawValue): \(meal.outline.map { "\($0.name), \($0.cookTimeMinutes) min" } ?? "")"]
        case .restart:
            guard !shown.isEmpty else { return }
            shown = ""
            write("\n\(Self.restartNote)\n\n")
            return
        }
        let text = lines.map { $0 + "\n" }.joined()
        shown += text
        write(text)
    }

    /// Prints what `result` adds to what was shown: the rest of its text when it begins with it, else the whole of it.
    func finish(with result: Components.Schemas.ScanResponse) {
        let whole = ScanPrinter.text(result) + "\n"
        write(whole.hasPrefix(shown) ? String(whole.dropFirst(shown.count)) : "\n\(Self.differsNote)\n\n\(whole)")
    }

    static let restartNote = "(Kiwi is correcting its answer: what follows replaces the above.)"
    static let differsNote = "(Kiwi's final answer differs from the above: this is it.)"

    /// An element of the answer, from its event's type into the API client's, through its JSON.
    private static func converted<Element: Encodable, Converted: Decodable>(_ element: Element) throws -> Converted {
        try JSONDecoder.iso8601.decode(Converted.self, from: KiwiJSON.encoder().encode(element))
    }
}
