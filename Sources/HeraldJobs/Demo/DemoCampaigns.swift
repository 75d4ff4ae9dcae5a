/// The demo tenant as a campaigns file: applied declaratively, so a second `herald demo`
/// changes nothing.
enum DemoCampaigns {
    static let yaml = """
        version: 1
        tenants:
        - slug: demo
          name: Demo Weather Co
          apps:
          - slug: weather
            name: Weather
            platform: ios
            bundleId: com.example.weather
            defaultLocale: en
            locales: [de, en, pt-BR]
            baseUrl: https://static.example.com/demo/weather
            campaigns:
            - key: spring-sale
              kind: banner
              name: Spring sale
              status: active
              priority: 10
              conditions:
                all: {appVersionLessThan: "3.0", flagNotSet: hideSpringSale}
                any: {onWifi: true, lastDisplayMinimumLaunches: 3}
              content:
                en:
                  entry: banner
                  views:
                  - {id: banner, file: "https://static.example.com/demo/weather/en/banner.html", height: 88, origin: top}
                  - {id: details, html: "<html><body><h1>Spring sale</h1><p>20% off Weather Pro</p></body></html>"}
                de:
                  entry: banner
                  views:
                  - {id: banner, file: "https://static.example.com/demo/weather/de/banner.html", height: 88, origin: top}
                  - {id: details, html: "<html><body><h1>Frühlingsangebot</h1><p>20 % auf Weather Pro</p></body></html>"}
            - key: welcome
              kind: alert
              name: Welcome
              status: active
              messageKey: 2026/11/01
              conditions:
                all: {minAppVersion: "2.0"}
              content:
                en: {title: Welcome, message: "Thanks for installing Weather & friends", actionUrl: "weather://tour", actionButton: Take the tour}
                de: {title: Willkommen, message: Danke fürs Installieren}
                pt-BR: {title: Bem-vindo, message: Obrigado por instalar}
            - key: tour
              kind: story
              name: Product tour
              status: active
              locales: [de, en]
              content:
                en:
                  pushTitle: New in Weather
                  pushText: See what's new
                  pages:
                  - {image: "https://cdn.example.com/demo/tour-1.jpg", duration: 5, link: "weather://radar", buttonTitle: Open radar, title: Radar, subtitle: Live rain map}
                  - {image: "https://cdn.example.com/demo/tour-2.jpg", duration: 4.5, title: Alerts}
                de:
                  pushText: Was ist neu
                  pages:
                  - {image: "https://cdn.example.com/demo/tour-1-de.jpg", title: Radar}

        """
}
