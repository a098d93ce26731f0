-- 0041_profile_language: the language a person reads the agency's texts in (issue 17,
-- languages). `updateProfile(input: { language: "cy" })` chooses one of the tenant file's
-- `languages`; `""` goes back to the device's (the request's Accept-Language). The server checks
-- the code against the tenant's languages; here, only its form (ISO 639: two or three lowercase
-- letters), since a tenant may later drop a language (the server then ignores the choice).
-- The row is the person's own, under the profiles' existing policies; an erasure deletes it with
-- the profile.

alter table profiles add column language text
    constraint profiles_language_code check (language ~ '^[a-z]{2,3}$');

grant update (language) on profiles to storykeep_app;
