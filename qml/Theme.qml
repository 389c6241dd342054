pragma Singleton
import QtQuick

// Colours and metrics shared by the console's pages; one light look on every platform.
QtObject {
    id: root

    readonly property color background: "#f3f5f8"
    readonly property color surface: "#ffffff"
    readonly property color border: "#dce2ea"
    readonly property color text: "#1c2633"
    readonly property color mutedText: "#5d6978"
    readonly property color accent: "#2f6fd6"
    readonly property color accentSoft: "#e5eefc"
    readonly property color stripe: "#f8f9fb"
    readonly property color control: "#eef1f5"

    readonly property color rail: "#18222f"
    readonly property color railText: "#c4cfdc"
    readonly property color railSelected: "#2a3a4f"
    readonly property color railSelectedText: "#ffffff"

    readonly property color online: "#1e9e57"
    readonly property color connecting: "#d08a00"
    readonly property color offline: "#d64040"
    readonly property color unauthorized: "#b4329c"
    readonly property color idle: "#8a94a3"

    readonly property int spacing: 12
    readonly property int radius: 6
    readonly property int railWidth: 208

    // Orders and deliveries: one colour per status family (OrderStatus::family(),
    // DeliveryState::family()), a strong tone for text and marks and a soft one for fills.
    readonly property color error: "#c93535"
    readonly property color errorSoft: "#fcecec"
    readonly property color success: "#1e9e57"
    readonly property color successSoft: "#e5f5ec"
    readonly property color warning: "#b87700"
    readonly property color warningSoft: "#fdf3df"
    readonly property color neutral: "#7b8594"
    readonly property color neutralSoft: "#eef0f3"
    readonly property string monoFont: "monospace"

    function statusColor(family: string): color {
        switch (family) {
        case "progress": return root.accent
        case "ok": return root.success
        case "waiting": return root.warning
        case "exception": return root.error
        default: return root.neutral
        }
    }
    function statusSoftColor(family: string): color {
        switch (family) {
        case "progress": return root.accentSoft
        case "ok": return root.successSoft
        case "waiting": return root.warningSoft
        case "exception": return root.errorSoft
        default: return root.neutralSoft
        }
    }
}
