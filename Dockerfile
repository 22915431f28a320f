# Proofline as one image: `up` by default (pipeline, scores, HTTP), or any other command
# (`load`, `publish`, `score`, ...). Configuration comes from PROOFLINE_* environment variables,
# the same settings as the README's configuration table.
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
RUN mvn -B -ntp -DskipTests package -pl launcher -am

FROM eclipse-temurin:17-jre
# curl for the compose health check
RUN apt-get update && apt-get install -y --no-install-recommends curl && rm -rf /var/lib/apt/lists/*
RUN useradd --system --home-dir /var/lib/proofline proofline && mkdir -p /var/lib/proofline /keys \
    && chown proofline /var/lib/proofline /keys
COPY --from=build /src/launcher/target/proofline.jar /opt/proofline/proofline.jar
USER proofline
ENV PROOFLINE_DATA_DIR=/var/lib/proofline
VOLUME ["/var/lib/proofline"]
EXPOSE 8080
ENTRYPOINT ["java", "-jar", "/opt/proofline/proofline.jar"]
CMD ["up"]
