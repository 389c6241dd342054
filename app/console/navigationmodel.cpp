#include "navigationmodel.h"

#include <QKeySequence>

#include <array>

namespace Gatehouse::Console {

// Source texts; QT_TR_NOOP here gives them the NavigationModel context that tr() uses.
const std::array<NavigationModel::Page, 9> &NavigationModel::pages()
{
    static const std::array<Page, 9> pages{{
        {"dashboard", QT_TR_NOOP("Dashboard"),
         QT_TR_NOOP("Listeners, request counters and the live event stream."), nullptr},
        {"clients", QT_TR_NOOP("Clients"),
         QT_TR_NOOP("The OAuth 2.0 / OpenID Connect client registry: register clients, grant "
                    "types, redirect URIs and secrets."),
         QT_TR_NOOP("Arrives with the OAuth authorization server.")},
        {"tokens", QT_TR_NOOP("Tokens & JWT"),
         QT_TR_NOOP("Issued tokens, introspection and revocation, signing keys and JWKS, and a "
                    "JWT decoder."),
         QT_TR_NOOP("Arrives with the OAuth token issuer.")},
        {"orders", QT_TR_NOOP("Orders"),
         QT_TR_NOOP("Customer orders and their status lifecycle, live as they change."),
         QT_TR_NOOP("Arrives with the order service.")},
        {"deliveries", QT_TR_NOOP("Deliveries"),
         QT_TR_NOOP("Webhook deliveries: every attempt with its signature, response and retry "
                    "schedule."),
         QT_TR_NOOP("Arrives with the webhook dispatcher.")},
        {"nodes", QT_TR_NOOP("Cluster nodes"),
         QT_TR_NOOP("Nodes and their labels, with live NodeRestriction verdicts."),
         QT_TR_NOOP("Arrives with the cluster API.")},
        {"rbac", QT_TR_NOOP("RBAC"),
         QT_TR_NOOP("Roles, bindings and the explained trace of every authorization decision."),
         QT_TR_NOOP("Arrives with cluster authorization.")},
        {"settings", QT_TR_NOOP("Settings"),
         QT_TR_NOOP("Every backend setting: its value, where it came from, and whether a change "
                    "applies live or at the next start."),
         nullptr},
        {"audit", QT_TR_NOOP("Audit log"),
         QT_TR_NOOP("Every administrative change: who, when, what it changed field by field, "
                    "and what it caused."),
         nullptr},
    }};
    return pages;
}

NavigationModel::NavigationModel(QObject *parent) : QAbstractListModel(parent) {}

int NavigationModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(pages().size());
}

QVariant NavigationModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.model() != this || index.row() >= rowCount())
        return {}; // also for the invalid index the *At() accessors pass for a bad row
    const Page &page = pages().at(size_t(index.row()));
    switch (role) {
    case PageIdRole:
        return QString::fromLatin1(page.id);
    case TitleRole:
    case Qt::DisplayRole:
        return tr(page.title);
    case DescriptionRole:
        return tr(page.description);
    case ArrivesWithRole:
        return page.arrivesWith ? tr(page.arrivesWith) : QString();
    case IconRole:
        return QUrl(QStringLiteral("qrc:/Gatehouse/icons/%1.png").arg(QLatin1String(page.id)));
    case ShortcutRole:
        return QKeySequence(QKeyCombination(Qt::ControlModifier, Qt::Key(Qt::Key_1 + index.row())))
            .toString(QKeySequence::NativeText);
    default:
        return {};
    }
}

QHash<int, QByteArray> NavigationModel::roleNames() const
{
    return {
        {PageIdRole, "pageId"},           {TitleRole, "title"},
        {DescriptionRole, "description"}, {ArrivesWithRole, "arrivesWith"},
        {IconRole, "iconSource"},         {ShortcutRole, "shortcut"},
    };
}

int NavigationModel::indexOf(const QString &pageId) const
{
    for (size_t i = 0; i < pages().size(); ++i) {
        if (pageId == QLatin1String(pages()[i].id))
            return int(i);
    }
    return -1;
}

QString NavigationModel::pageIdAt(int row) const
{
    return data(index(row), PageIdRole).toString();
}

QString NavigationModel::titleAt(int row) const
{
    return data(index(row), TitleRole).toString();
}

QString NavigationModel::descriptionAt(int row) const
{
    return data(index(row), DescriptionRole).toString();
}

QString NavigationModel::arrivesWithAt(int row) const
{
    return data(index(row), ArrivesWithRole).toString();
}

QUrl NavigationModel::iconAt(int row) const
{
    return data(index(row), IconRole).toUrl();
}

QStringList NavigationModel::column(Role role) const
{
    QStringList texts;
    for (int row = 0; row < rowCount(); ++row)
        texts.append(data(index(row), role).toString());
    return texts;
}

void NavigationModel::retranslate()
{
    emit dataChanged(index(0), index(rowCount() - 1),
                     {TitleRole, Qt::DisplayRole, DescriptionRole, ArrivesWithRole, ShortcutRole});
    emit textsChanged();
}

} // namespace Gatehouse::Console
