import Foundation
import KiwiModels
import KiwiScans

/// What a phone shows of a scan's end, in the person's language: a title, and a line naming the first recipe when
/// there is one. A failed scan says that nothing was charged, as the quota counts no failed scan.
struct NotificationText: Sendable, Equatable {
    var title: String
    var body: String

    /// The longest recipe name shown, in characters: an alert shows two lines or so, and the payload stays far below
    /// APNs' 4 KB.
    static let longestName = 80

    init(_ scan: EndedScan) {
        let phrases = Phrases.of(scan.language)
        switch scan.state {
        case .failed:
            (title, body) = (phrases.failed, phrases.tryAgain)
        default:
            title = phrases.ready
            body = scan.firstRecipe.map { phrases.firstUp(Self.shortened($0)) } ?? phrases.seeWhatItFound
        }
    }

    private static func shortened(_ name: String) -> String {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.count <= longestName ? name : String(name.prefix(longestName - 1)) + "…"
    }

    /// The phrases of one language.
    private struct Phrases {
        var ready: String
        var firstUp: (String) -> String
        var seeWhatItFound: String
        var failed: String
        var tryAgain: String

        static func of(_ language: AnswerLanguage) -> Phrases {
            switch language {
            case .en:
                Phrases(
                    ready: "Your scan is ready",
                    firstUp: { "First up: \($0)" },
                    seeWhatItFound: "Open Kiwi to see what it found.",
                    failed: "Your scan could not be finished",
                    tryAgain: "Open Kiwi to try again. Nothing was charged."
                )
            case .de:
                Phrases(
                    ready: "Dein Scan ist fertig",
                    firstUp: { "Als Erstes: \($0)" },
                    seeWhatItFound: "Öffne Kiwi und sieh, was gefunden wurde.",
                    failed: "Dein Scan konnte nicht abgeschlossen werden",
                    tryAgain: "Öffne Kiwi und versuche es noch einmal. Es wurde nichts angerechnet."
                )
            case .fr:
                Phrases(
                    ready: "Votre scan est prêt",
                    firstUp: { "Pour commencer : \($0)" },
                    seeWhatItFound: "Ouvrez Kiwi pour voir ce qu’il a trouvé.",
                    failed: "Votre scan n’a pas pu aboutir",
                    tryAgain: "Ouvrez Kiwi pour réessayer. Rien n’a été décompté."
                )
            case .es:
                Phrases(
                    ready: "Tu escaneo está listo",
                    firstUp: { "Para empezar: \($0)" },
                    seeWhatItFound: "Abre Kiwi para ver lo que ha encontrado.",
                    failed: "No se pudo terminar tu escaneo",
                    tryAgain: "Abre Kiwi para volver a intentarlo. No se ha descontado nada."
                )
            case .it:
                Phrases(
                    ready: "La tua scansione è pronta",
                    firstUp: { "Per cominciare: \($0)" },
                    seeWhatItFound: "Apri Kiwi per vedere cosa ha trovato.",
                    failed: "Non è stato possibile completare la scansione",
                    tryAgain: "Apri Kiwi per riprovare. Non è stato conteggiato nulla."
                )
            case .nl:
                Phrases(
                    ready: "Je scan is klaar",
                    firstUp: { "Om te beginnen: \($0)" },
                    seeWhatItFound: "Open Kiwi om te zien wat er is gevonden.",
                    failed: "Je scan kon niet worden afgerond",
                    tryAgain: "Open Kiwi om het opnieuw te proberen. Er is niets afgeschreven."
                )
            }
        }
    }
}
