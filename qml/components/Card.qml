import QtQuick
import Gatehouse

// A surface with the theme's radius and border: the panels of a page (a list, a form, a
// result). Set clip where the content may overflow it (a ListView inside).
Rectangle {
    color: Theme.surface
    radius: Theme.radius
    border.color: Theme.border
}
