pragma Singleton
import QtQuick
import Gatehouse

// Colours and metrics shared by the console's pages, in a light and a dark variant. `dark`
// follows Appearance (the header's Theme menu: the system's preference, light or dark); every
// colour below switches with it, and Main.qml hands them to the controls' palette.
//
// Contrast (WCAG 2.1) of the dark colours, at least 4.5:1 for text: text on background,
// surface, stripe, control and field 14.9 / 13.3 / 12.3 / 10.6 / 11.4; mutedText on them 7.5 /
// 6.7 / 6.2 / 5.4 / 5.8; on their soft fills accent 5.2, success 6.3, warning 6.8, error 5.4,
// neutral 5.9; onAccent on accent, error and success 7.1 / 6.8 / 8.5. The light colours are the
// console's original ones (its status colours on their soft fills are 3.1 to 4.5).
QtObject {
    id: root

    readonly property bool dark: Appearance.dark

    readonly property color background: root.dark ? "#11161d" : "#f3f5f8"
    readonly property color surface: root.dark ? "#1a212b" : "#ffffff"
    readonly property color border: root.dark ? "#343f4e" : "#dce2ea"
    readonly property color text: root.dark ? "#e4e9ef" : "#1c2633"
    readonly property color mutedText: root.dark ? "#9ba8b7" : "#5d6978"
    readonly property color accent: root.dark ? "#5f9ff7" : "#2f6fd6"
    readonly property color accentSoft: root.dark ? "#1b2d47" : "#e5eefc"
    readonly property color stripe: root.dark ? "#1f2732" : "#f8f9fb"
    readonly property color control: root.dark ? "#29323e" : "#eef1f5"
    // Text and marks on a strong fill (accent, error, success): a primary button, a check mark.
    readonly property color onAccent: root.dark ? "#0b1017" : "#ffffff"

    readonly property color rail: root.dark ? "#0b0f14" : "#18222f"
    readonly property color railText: root.dark ? "#b9c4d1" : "#c4cfdc"
    readonly property color railSelected: root.dark ? "#1e2a39" : "#2a3a4f"
    readonly property color railSelectedText: "#ffffff"
    readonly property color railHover: Qt.lighter(root.rail, root.dark ? 1.9 : 1.25)

    readonly property color online: root.dark ? "#3fb66e" : "#1e9e57"
    readonly property color connecting: root.dark ? "#e0a326" : "#d08a00"
    readonly property color offline: root.dark ? "#f06565" : "#d64040"
    readonly property color unauthorized: root.dark ? "#db6cc6" : "#b4329c"
    readonly property color idle: root.dark ? "#8792a1" : "#8a94a3"

    // What the controls' palette needs beyond the colours above (Main.qml). The light values
    // are the ones the Fusion style had before the console set them.
    // Text fields, check boxes, spin boxes: in the dark variant a shade above the cards, so a
    // field or an unchecked box stands out from what it is on (Fusion's outline, the window
    // colour darkened, hardly shows on dark colours).
    readonly property color field: root.dark ? "#242d39" : "#ffffff"
    readonly property color controlLight: root.dark ? "#3a4553" : "#ffffff"
    readonly property color controlMidlight: root.dark ? "#323c49" : "#cacaca"
    readonly property color controlDark: root.dark ? "#5a6677" : "#9f9f9f"
    readonly property color shadow: root.dark ? "#000000" : "#767676"
    readonly property color toolTip: root.dark ? "#2b3542" : "#ffffdc"
    readonly property color toolTipText: root.dark ? "#e4e9ef" : "#000000"
    readonly property color disabledBase: root.dark ? "#161c24" : "#eef1f5"
    readonly property color disabledButton: root.dark ? "#1f2630" : "#eef1f5"

    readonly property int spacing: 12
    readonly property int radius: 6
    readonly property int railWidth: 208

    // Orders and deliveries: one colour per status family (OrderStatus::family(),
    // DeliveryState::family()), a strong tone for text and marks and a soft one for fills.
    readonly property color error: root.dark ? "#f27474" : "#c93535"
    readonly property color errorSoft: root.dark ? "#3b1e22" : "#fcecec"
    readonly property color success: root.dark ? "#4fc27f" : "#1e9e57"
    readonly property color successSoft: root.dark ? "#16301f" : "#e5f5ec"
    readonly property color warning: root.dark ? "#e3a93d" : "#b87700"
    readonly property color warningSoft: root.dark ? "#35290f" : "#fdf3df"
    readonly property color neutral: root.dark ? "#a3adbb" : "#7b8594"
    readonly property color neutralSoft: root.dark ? "#29303a" : "#eef0f3"
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
