#pragma once

#include <QAbstractListModel>
#include <QStringList>
#include <QUrl>

#include <array>

namespace Gatehouse::Console {

// The console's pages, in rail order. Static for now; each later service fills its page.
// Texts are translated when read; retranslate() tells views that they changed.
class NavigationModel : public QAbstractListModel
{
    Q_OBJECT
    Q_PROPERTY(int count READ count CONSTANT)
    // Per row, for bindings that show one page (they follow the language, unlike titleAt()).
    Q_PROPERTY(QStringList titles READ titles NOTIFY textsChanged)
    Q_PROPERTY(QStringList descriptions READ descriptions NOTIFY textsChanged)
    Q_PROPERTY(
        QStringList arrivals READ arrivals NOTIFY textsChanged) // "" for pages that are there

public:
    enum Role {
        PageIdRole = Qt::UserRole + 1,
        TitleRole,
        DescriptionRole,
        ArrivesWithRole, // empty for pages that are already there
        IconRole,        // qrc URL of the rail icon
        ShortcutRole,    // "Ctrl+1" ...
    };
    Q_ENUM(Role)

    explicit NavigationModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    int count() const { return rowCount(); }
    // The row of a page id ("dashboard", "clients", ...), -1 if there is none.
    Q_INVOKABLE int indexOf(const QString &pageId) const;
    // Per-row accessors for views that show one page (empty for an invalid row).
    Q_INVOKABLE QString pageIdAt(int row) const;
    Q_INVOKABLE QString titleAt(int row) const;
    Q_INVOKABLE QString descriptionAt(int row) const;
    Q_INVOKABLE QString arrivesWithAt(int row) const;
    Q_INVOKABLE QUrl iconAt(int row) const;

    QStringList titles() const { return column(TitleRole); }
    QStringList descriptions() const { return column(DescriptionRole); }
    QStringList arrivals() const { return column(ArrivesWithRole); }

    // The language changed: every row's texts (and the shortcut's native text) did.
    void retranslate();

signals:
    void textsChanged();

private:
    QStringList column(Role role) const;

    struct Page
    {
        const char *id;
        const char *title;
        const char *description;
        const char *arrivesWith;
    };
    static const std::array<Page, 9> &pages();
};

} // namespace Gatehouse::Console
